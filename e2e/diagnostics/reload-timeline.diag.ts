import { expect, test } from '../support/fixtures';
import { tryTheDemo } from '../support/workspace';

/**
 * A diagnostic, not a test (issue 36): where a reload's gap in the audio goes. The demo records,
 * the page reloads at 0:05, and the new page notes on its own clock when each step of the rejoin
 * happened: the document, the contract socket open, each verb sent, the worklet module, the
 * microphone asked for and given, the first chunk sent. The old page's last chunk is timed too.
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

test('where a reload’s gap goes: the rejoin’s steps on the page’s clock', async ({ scribe }) => {
  test.setTimeout(180_000);
  const { page } = scribe;
  await page.addInitScript(() => {
    const marks: [string, number][] = [];
    (window as unknown as { __marks: [string, number][] }).__marks = marks;
    const mark = (name: string) => marks.push([name, performance.timeOrigin + performance.now()]);
    mark('script');
    document.addEventListener('DOMContentLoaded', () => mark('DOMContentLoaded'));
    const send = WebSocket.prototype.send;
    let chunks = 0;
    WebSocket.prototype.send = function (this: WebSocket, data) {
      if (typeof data === 'string') {
        const verb = /"verb":"([^"]+)"/.exec(data)?.[1];
        if (verb) mark(`call ${verb}`);
      } else if (chunks++ === 0) mark('first chunk sent');
      (window as unknown as { __lastChunk: number }).__lastChunk = performance.timeOrigin + performance.now();
      send.call(this, data);
    };
    const OriginalSocket = WebSocket;
    window.WebSocket = class extends OriginalSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        mark('socket created');
        this.addEventListener('open', () => mark('socket open'));
      }
    };
    const addModule = AudioWorklet.prototype.addModule;
    AudioWorklet.prototype.addModule = async function (this: AudioWorklet, ...args) {
      mark('worklet module asked');
      await addModule.apply(this, args);
      mark('worklet module loaded');
    };
    const getUserMedia = MediaDevices.prototype.getUserMedia;
    MediaDevices.prototype.getUserMedia = async function (this: MediaDevices, constraints) {
      mark('microphone asked');
      const stream = await getUserMedia.call(this, constraints);
      mark('microphone given');
      return stream;
    };
  });
  await page.reload();
  await tryTheDemo(page);
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('elapsed')).toHaveText('0:05', { timeout: 60_000 });
  const lastOld = await page.evaluate(() => (window as unknown as { __lastChunk: number }).__lastChunk);
  await page.reload();
  await expect(page.getByTestId('rejoined-notice')).toBeVisible({ timeout: 30_000 });
  await page.waitForTimeout(2_000);
  const marks = await page.evaluate(() => (window as unknown as { __marks: [string, number][] }).__marks);
  const firstOf = new Map<string, number>();
  for (const [name, at] of marks) if (!firstOf.has(name)) firstOf.set(name, at);
  console.log(`old page's last chunk sent before the reload was asked: ${lastOld}`);
  for (const [name, at] of firstOf) console.log(`${((at - lastOld) / 1_000).toFixed(3)} s  ${name}`);
});
