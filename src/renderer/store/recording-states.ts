import type { AppState } from './app-store';

export { RECORDING_STATES } from '../../shared/contract';

/**
 * The visit clock's whole seconds: one selector, so the clock's text and the level meter that
 * draws with it (LevelMeter.tsx) tick on the same report.
 */
export const elapsedSeconds = (state: AppState) => Math.floor((state.recorder?.elapsedMs ?? 0) / 1_000);

/** Shown after a reload (or a renderer crash) mid-visit, once the microphone is open again. */
export const REJOINED_NOTICE = 'The window reloaded; the recording carried on.';
