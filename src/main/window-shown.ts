import type { BrowserWindow } from 'electron';
import { eventChannel } from '../shared/contract';

/**
 * Tells the page whether the clinician can see the window (issue 40). The window keeps
 * backgroundThrottling off so the capture's cadence never slows (main-window.ts), and with it off
 * Chromium tells the page it is always visible (Electron's docs: backgroundThrottling "also affects
 * the Page Visibility API"). So the page would go on drawing its clock and meter into a minimised
 * window. Main knows when the window is minimised or hidden and says so; the page stops what only
 * feeds the screen (src/renderer/screen/window-shown.ts). A window merely behind the EHR is not reported
 * by Electron with throttling off: it is drawn as if seen.
 */
export function reportWindowShown(window: BrowserWindow): () => void {
  const send = () => {
    if (window.isDestroyed()) return;
    window.webContents.send(eventChannel('window.shown'), {
      shown: window.isVisible() && !window.isMinimized(),
    });
  };
  const events = ['minimize', 'restore', 'hide', 'show'] as const;
  for (const event of events) window.on(event as 'show', send);
  // A page loaded again (a reload, or after a crash) starts out believing it is seen.
  window.webContents.on('did-finish-load', send);
  return () => {
    for (const event of events) window.removeListener(event as 'show', send);
    if (!window.isDestroyed()) window.webContents.removeListener('did-finish-load', send);
  };
}
