/**
 * Whether the renderer can reach the main-process core right now. `refused`: browser mode's host
 * does not take this page's credential (an old tab, a copied address, a restarted host); only the
 * launch address browser mode printed can connect, so the page stops trying.
 */
export type LinkState = 'connecting' | 'connected' | 'lost' | 'refused';
