import type { RecorderView } from '../../shared/contract';

/**
 * Main's states of a visit being recorded: the recording screen shows its controls, and a page
 * that loads while main is in one of them rejoins the visit with its microphone.
 */
export const RECORDING_STATES: ReadonlySet<RecorderView['state']> = new Set<RecorderView['state']>([
  'connecting',
  'streaming',
  'auto-paused',
  'paused',
  'reconnecting',
  'offline',
]);

/** Shown after a reload (or a renderer crash) mid-visit, once the microphone is open again. */
export const REJOINED_NOTICE = 'The window reloaded; the recording carried on.';
