import { useEffect, type RefObject } from 'react';

/**
 * Whether the person has pressed a key or clicked in this page yet. A page that has just loaded
 * has lost no focus: its heading taking it would only draw a focus ring nobody asked for.
 */
let used = false;
if (typeof window !== 'undefined') {
  const mark = () => {
    used = true;
  };
  window.addEventListener('keydown', mark, { capture: true, once: true });
  window.addEventListener('pointerdown', mark, { capture: true, once: true });
}

/**
 * Puts the focus on a pane's heading when the pane arrives and the focus was lost with what came
 * before (issue 31): the Start button, the Sign in button, the Discard of a cancelled visit are
 * gone once pressed, and the focus fell to the page's body, where a keyboard user has to start
 * over from the top. Focus that is somewhere on purpose (the rail, a field) stays where it is.
 * `when` is what makes the pane's content new (signed in, say): the heading takes the focus again
 * each time it turns true.
 */
export function useFocusOnArrival(heading: RefObject<HTMLElement | null>, when = true): void {
  useEffect(() => {
    if (!when || !used) return;
    const active = document.activeElement;
    // A control disabled by what just happened (New visit once recording starts) holds no focus
    // a keyboard user can use either.
    if (active === null || active === document.body || active.matches(':disabled')) heading.current?.focus();
  }, [heading, when]);
}
