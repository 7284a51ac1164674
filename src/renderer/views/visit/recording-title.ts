/**
 * The window title while a visit records, from its whole minutes: "● Recording — Ambient Scribe",
 * then "● Recording 12 min — Ambient Scribe" (or "Paused"). The caller passes whole minutes, so the
 * title changes once a minute. The dot and the state are what the taskbar
 * must say when the app is behind; the exact second is on the visit screen. A title with seconds
 * changed once a second, and each change is a layout and a redraw of the window's frame outside
 * the page: the browser's tab strip measured about 0.6 % of a core in a trace (issue 19), and in
 * Electron it is the system's title bar and taskbar button instead.
 */
export function recordingTitle(pausedByYou: boolean, elapsedMinutes: number, appTitle: string): string {
  const minutes = Math.max(0, Math.floor(elapsedMinutes));
  const state = pausedByYou ? 'Paused' : 'Recording';
  return `● ${minutes >= 1 ? `${state} ${minutes} min` : state} — ${appTitle}`;
}
