/**
 * Browser mode's host did not take this page (src/renderer/api/link-state.ts, `refused`): a tab
 * opened without the launch address, a copy of the window, or a page of a host that restarted.
 * Nothing of the app is reachable from here, so nothing else is shown.
 */
export function LaunchAddressNeeded() {
  return (
    <main className="app-main launch-address-needed">
      <h1>This window needs the app&apos;s launch address</h1>
      <p>
        Browser mode answers one window: the one opened from the address it printed when it started
        (http://127.0.0.1:…/#key=…). That address works once.
      </p>
      <p>
        If the app&apos;s window is open in another tab, use that one. Otherwise restart browser mode with{' '}
        <code>npm run start:browser</code> and open the new address. A visit that was recording keeps its
        audio and can be finished from History.
      </p>
    </main>
  );
}
