/**
 * How often a crashed window may be reloaded: a renderer that dies again at once (a bad GPU
 * driver, memory exhausted) would otherwise be reloaded forever while the clinician sees a blank
 * window. At most `max` reloads within `windowMs`; the next crash is reported instead.
 */
export const MAX_RELOADS = 3;
export const RELOAD_WINDOW_MS = 60_000;

export interface ReloadGuard {
  /** Records a reload and says whether it may happen. */
  mayReload(): boolean;
}

export function createReloadGuard(
  now: () => number,
  max: number = MAX_RELOADS,
  windowMs: number = RELOAD_WINDOW_MS,
): ReloadGuard {
  let reloads: number[] = [];
  return {
    mayReload() {
      const at = now();
      reloads = reloads.filter((t) => at - t < windowMs);
      if (reloads.length >= max) return false;
      reloads.push(at);
      return true;
    },
  };
}
