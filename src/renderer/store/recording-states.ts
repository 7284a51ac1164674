export { RECORDING_STATES } from '../../shared/contract';

/** Shown after a reload (or a renderer crash) mid-visit, once the microphone is open again. */
export const REJOINED_NOTICE = 'The window reloaded; the recording carried on.';
