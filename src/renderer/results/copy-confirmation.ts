import { createStore } from 'zustand/vanilla';

/** How long "Copied" shows at the control that copied: long enough to see, gone before the next. */
export const COPIED_MS = 2_000;
/** A refused copy says what to do instead, which takes longer to read. */
export const NOT_COPIED_MS = 8_000;

export interface CopyConfirmation {
  /** The control that copied (its id). */
  control: string;
  outcome: 'copied' | 'failed';
  /** What was copied, as the control names it ("Chief complaint", "all of the note"). */
  what: string;
  /** Counts the copies, so a second copy of the same thing is announced again. */
  count: number;
}

export interface CopyConfirmationState {
  /** The last copy's confirmation while it shows; null once it has gone. */
  shown: CopyConfirmation | null;
  /** A copy happened at `control`: its confirmation replaces any other and clears by itself. */
  confirm(control: string, outcome: CopyConfirmation['outcome'], what: string): void;
}

type Timers = Pick<typeof globalThis, 'setTimeout' | 'clearTimeout'>;

/**
 * The window's one copy confirmation (issue 31). Only the last copy is on the clipboard, so only
 * the control that made it says so, and only for a moment: a copy anywhere replaces it at once.
 * A store of its own, made outside React, so it is tested without it.
 */
export function createCopyConfirmation(timers: Timers = globalThis) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let count = 0;
  return createStore<CopyConfirmationState>()((set) => ({
    shown: null,
    confirm(control, outcome, what) {
      if (timer !== undefined) timers.clearTimeout(timer);
      count += 1;
      set({ shown: { control, outcome, what, count } });
      timer = timers.setTimeout(
        () => {
          timer = undefined;
          set({ shown: null });
        },
        outcome === 'copied' ? COPIED_MS : NOT_COPIED_MS,
      );
    },
  }));
}

/** The confirmation every Copy control of the window shares. */
export const copyConfirmation = createCopyConfirmation();

/**
 * What a screen reader hears, once per copy: what was copied, or what to do instead. A copy of
 * the same thing again ends in a no-break space every other time: the words change, so the live
 * region speaks them again.
 */
export function announcement(shown: CopyConfirmation | null): string {
  if (!shown) return '';
  const words =
    shown.outcome === 'copied'
      ? `Copied: ${shown.what}.`
      : `Could not copy ${shown.what}: select the text and copy it by hand.`;
  return shown.count % 2 === 0 ? `${words}\u00a0` : words;
}
