/** Whether the renderer can reach the main-process core right now. */
export type LinkState = 'connecting' | 'connected' | 'lost';
