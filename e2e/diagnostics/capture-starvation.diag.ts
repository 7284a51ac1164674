import { expect, test } from '../support/fixtures';
import { tryTheDemo } from '../support/workspace';

/**
 * A diagnostic, not a test (issue 36; docs/reliability.md, "A machine half as fast"): where a busy
 * machine's audio goes missing. A demo visit of the conversation; every chunk the page sends is
 * timed in the page with its header's capture time and its runs of exact zeros (the fixture has
 * none: Web Audio's fill for a microphone that did not deliver), and the page's thread is profiled
 * for 20 s. It prints how fast audio left against the wall clock, how late the last chunks were,
 * how many zeros came in, and how idle the page's thread was. Run it beside some load:
 *
 *   scripts/slow-machine.sh bash -c 'yes >/dev/null & npx playwright test \
 *     --config e2e/diagnostics/playwright.config.ts; kill %1'
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

interface Row {
  at: number;
  capturedAt: number;
  samples: number;
  longestZeros: number;
  zeros: number;
}

test('where a busy machine’s audio goes: the capture’s pace, its zeros, the page’s thread', async ({
  scribe,
}) => {
  test.setTimeout(180_000);
  const { page } = scribe;
  await page.addInitScript(() => {
    const rows: Row[] = [];
    (window as unknown as { __rows: Row[] }).__rows = rows;
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (this: WebSocket, data) {
      if (data instanceof ArrayBuffer) {
        const samples = new Int16Array(data, 16);
        let zeros = 0;
        let run = 0;
        let longestZeros = 0;
        for (const value of samples) {
          run = value === 0 ? run + 1 : 0;
          if (value === 0) zeros++;
          longestZeros = Math.max(longestZeros, run);
        }
        const capturedAt = new DataView(data).getFloat64(8, true);
        const at = performance.timeOrigin + performance.now();
        rows.push({ at, capturedAt, samples: samples.length, longestZeros, zeros });
      }
      send.call(this, data);
    };
  });
  await page.reload();
  await tryTheDemo(page);
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 1_000 });
  await page.waitForTimeout(5_000);
  await cdp.send('Profiler.start');
  await page.waitForTimeout(20_000);
  const { profile } = await cdp.send('Profiler.stop');
  await page.waitForTimeout(10_000);
  const rows = await page.evaluate(() => (window as unknown as { __rows: Row[] }).__rows);

  expect(rows.length, 'chunks sent').toBeGreaterThan(0);
  const first = rows[0]!;
  const last = rows.at(-1)!;
  const audioMs = rows.reduce((sum, r) => sum + r.samples / 16, 0);
  const wallMs = last.at - first.at;
  // How late each chunk left after its audio was captured, against the first chunk's lateness.
  const lateness = (r: Row) => r.at - r.capturedAt - r.samples / 16;
  const zeroMs = rows.filter((r) => r.longestZeros >= 160).reduce((sum, r) => sum + r.zeros / 16, 0);
  let idle = 0;
  let total = 0;
  const idleNode = new Set(
    profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id),
  );
  profile.samples?.forEach((id, k) => {
    const delta = profile.timeDeltas?.[k] ?? 0;
    total += delta;
    if (idleNode.has(id)) idle += delta;
  });
  console.log(
    `audio sent / wall time ${(audioMs / wallMs).toFixed(3)}× (${(audioMs / 1_000).toFixed(1)} s in ${(wallMs / 1_000).toFixed(1)} s); ` +
      `last chunk ${((lateness(last) - lateness(first)) / 1_000).toFixed(1)} s later than the first; ` +
      `exact zeros (runs ≥ 10 ms) ${(zeroMs / 1_000).toFixed(2)} s; page thread idle ${((idle / total) * 100).toFixed(0)} %`,
  );
});
