/**
 * Browser mode's "system browser" for main's sign-in page: a new tab, with no handle back to this
 * page. In Electron main opens sign-in pages itself (shell.openExternal), so the auth.openUrl event
 * that calls this only reaches a renderer in browser mode. Callers pass web addresses only.
 */
export function openInNewTab(url: string): void {
  window.open(url, '_blank', 'noopener');
}
