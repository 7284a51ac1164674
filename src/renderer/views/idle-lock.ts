import { useEffect } from 'react';

/** What counts as someone at the window. Pointer moves are many: they only stamp a time. */
const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const;
/** How often the idle time is compared: a lock may come up to this much after the limit. */
export const IDLE_CHECK_MS = 15_000;

/**
 * Calls `onIdle` once nobody has used the window for `idleMs` (checked every IDLE_CHECK_MS).
 * `paused` (a visit recording) keeps it from firing and restarts the count when it ends: a
 * clinician who ends a long visit does not find the window locked at once.
 */
export function useIdleLock(idleMs: number, paused: boolean, onIdle: () => void): void {
  useEffect(() => {
    let lastActivity = Date.now();
    const stamp = () => {
      lastActivity = Date.now();
    };
    for (const type of ACTIVITY_EVENTS)
      window.addEventListener(type, stamp, { passive: true, capture: true });
    const timer = setInterval(() => {
      if (paused) return stamp();
      if (Date.now() - lastActivity >= idleMs) {
        stamp();
        onIdle();
      }
    }, IDLE_CHECK_MS);
    return () => {
      clearInterval(timer);
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, stamp, { capture: true });
    };
  }, [idleMs, paused, onIdle]);
}
