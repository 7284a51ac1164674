import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { CALL_TAB_TITLE } from './chromium';

/**
 * The "call" of a telehealth visit (issue 30): a tab of its own, titled CALL_TAB_TITLE, that plays
 * the patient's side of the conversation as a video call's tab would. The browser is launched with
 * that title (fixtures' `callTab`), so the app's getDisplayMedia shares this tab's sound without a
 * picker.
 *
 * The patient starts speaking the moment the app's microphone opens, so the two sides keep the
 * script's timeline within a few tens of ms (and the echo in telehealth-speakers.wav comes after
 * the call's own sound, as in a room). Playwright serves the call's page at the app's own origin
 * (routed for that tab alone, never reaching the app's host), so the two tabs share a
 * BroadcastChannel: the app's page, with this file's init script, says when getUserMedia has
 * opened the microphone, and the call plays. A round trip through the test runner took 300 to
 * 900 ms, which let the patient run into the clinician's next turn.
 */
export { CALL_TAB_TITLE } from './chromium';
const CHANNEL = 'scribe-e2e-telehealth-call';
const PATH = '/__e2e-call__/';

export interface CallTab {
  page: Page;
  /** Resolves once the call has started playing (the app's microphone is open). */
  playing(): Promise<void>;
  /** Closes the call's tab: the shared sound ends, as when a call's window closes. */
  close(): Promise<void>;
}

/**
 * Makes the app's page say on the call's channel when its microphone opens. Call it before the
 * page loads the app (an init script runs on each load).
 */
export async function announceMicrophone(app: Page): Promise<void> {
  await app.addInitScript((channel) => {
    const media = navigator.mediaDevices;
    const open = media.getUserMedia.bind(media);
    media.getUserMedia = async (constraints) => {
      const stream = await open(constraints);
      new BroadcastChannel(channel).postMessage('microphone open');
      return stream;
    };
  }, CHANNEL);
}

/** Opens the call's tab beside `app`, at the app's origin; it plays `wav` when the microphone opens. */
export async function openCallTab(app: Page, wav: string): Promise<CallTab> {
  const audio = readFileSync(wav);
  const origin = new URL(app.url()).origin;
  const page = await app.context().newPage();
  await page.route(`${origin}${PATH}**`, (route) => {
    if (new URL(route.request().url()).pathname.endsWith('/call.wav'))
      return route.fulfill({ status: 200, contentType: 'audio/wav', body: audio });
    return route.fulfill({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><title>${CALL_TAB_TITLE}</title></head><body>
<h1>The patient</h1><audio src="call.wav" preload="auto"></audio>
<script>
  const audio = document.querySelector('audio');
  window.started = new Promise((resolve) => audio.addEventListener('playing', resolve, { once: true }));
  new BroadcastChannel(${JSON.stringify(CHANNEL)}).onmessage = () => audio.play();
</script></body></html>`,
    });
  });
  await page.goto(`${origin}${PATH}`);
  // Loaded before the visit, so it starts at once when the microphone opens.
  await page.waitForFunction(() => (document.querySelector('audio')?.readyState ?? 0) >= 4);
  return {
    page,
    playing: () => page.evaluate(() => (window as unknown as { started: Promise<void> }).started),
    close: () => page.close(),
  };
}
