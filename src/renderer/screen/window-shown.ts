/**
 * Whether the clinician can see the window (issue 40): the page visible to Chromium (not a tab
 * behind another, not minimised in browser mode) and, in the desktop app, not minimised or hidden
 * as main reports it (src/main/window-shown.ts: there the page is always "visible" to Chromium).
 * While it is not, what only feeds the screen (the visit's clock, the level meter) stops, and
 * catches up at once when it shows again; the chunks, voice detection and auto-pause go on.
 */
let shownByMain = true;
const listeners = new Set<() => void>();

export function windowShown(): boolean {
  return shownByMain && document.visibilityState === 'visible';
}

/** Main's word on the desktop window (the `window.shown` event). */
export function setShownByMain(shown: boolean): void {
  if (shown === shownByMain) return;
  shownByMain = shown;
  for (const listener of listeners) listener();
}

/** Calls `listener` whenever windowShown() may have changed; returns a function that stops it. */
export function onWindowShownChange(listener: () => void): () => void {
  listeners.add(listener);
  document.addEventListener('visibilitychange', listener);
  return () => {
    listeners.delete(listener);
    document.removeEventListener('visibilitychange', listener);
  };
}
