import { isSignInPageUrl } from '../../shared/sign-in-page';

/**
 * The page opens no windows (Electron security checklist, "Disable or limit creation of new
 * windows"). In Electron main refuses them (setWindowOpenHandler), but browser mode's page is an
 * ordinary tab, so window.open is replaced here by a refusal that cannot be assigned back, before
 * any other module of the page runs (main.tsx imports this module first).
 *
 * The one window the app opens is main's sign-in page in browser mode (its "system browser"),
 * through the original window.open captured here, and only at an https or loopback address.
 */
const openWindow = window.open.bind(window);

function refuseWindowOpen(): null {
  // The address stays out of the message: it could carry a code or a token.
  console.warn('Ambient Scribe opens no windows: a call to window.open was refused.');
  return null;
}

Object.defineProperty(window, 'open', { value: refuseWindowOpen, writable: false, configurable: false });

/** Opens main's sign-in page in a new tab, with no handle back to this page. */
export function openSignInTab(url: string): void {
  if (!isSignInPageUrl(url)) return;
  openWindow(url, '_blank', 'noopener');
}
