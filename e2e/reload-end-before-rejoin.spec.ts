import { expect, startVisit, test, useExternalService } from './support/external-service';
import { secondsWithoutAudio, untilRecorded } from './support/workspace';

/**
 * Issue 36, as a fresh-clone CI run on a busy machine met it: after a reload mid-visit, the new
 * page shows End as soon as main's recorder events reach it, while its own questions to main
 * (recorder.state, then recorder.attach) are still on their way. End pressed then ends the visit
 * before the new page ever joined it, and the visit's record must still say how long it went
 * without audio, up to End. Here the new page's recorder.state is held on its way to main, so
 * End comes before the rejoin every time, not only when the machine is slow enough.
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });
test.skip(({ target }) => target !== 'browser', 'Browser mode can reload the page and hold its calls.');

for (const ack of [true, false]) {
  test.describe(ack ? 'a service with ACK' : 'a service without ACK', () => {
    test.use({ sandboxOptions: { timeScale: 0.25, asr: 'auto', ack } });

    test('End pressed on a reloaded page before it rejoined the visit: the visit ends, and its record keeps the time without audio', async ({
      scribe,
      sandbox,
      watched,
    }) => {
      test.setTimeout(180_000);
      const { page } = scribe;
      const encounter = ack ? 'earlyend1' : 'earlyendnoack1';
      await useExternalService(page, sandbox.url, ack ? 'dr-early-end' : 'dr-early-end-noack');
      await startVisit(page, encounter);
      await untilRecorded(page, 5, 60_000);

      // Only sockets made from now on are routed: the new page's, not the one recording now.
      let heldCalls = 0;
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.routeWebSocket(
        (url) => url.pathname === '/contract',
        (client) => {
          const server = client.connectToServer();
          server.onMessage((message) => client.send(message));
          client.onMessage((message) => {
            if (
              typeof message === 'string' &&
              (JSON.parse(message) as { verb?: string }).verb === 'recorder.state'
            ) {
              heldCalls += 1;
              void released.then(() => server.send(message));
              return;
            }
            server.send(message);
          });
        },
      );
      await page.reload();

      // The new page learns of the visit only from main's events; the first one shows End.
      const end = page.getByRole('button', { name: /End visit/ });
      await expect(end).toBeVisible({ timeout: 30_000 });
      expect(heldCalls, 'the new page’s recorder.state, held').toBe(1);
      const endPressedAt = Date.now();
      await end.click();
      await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });
      release();

      // The new page never captured: every chunk came from the old one, and all of them arrived.
      expect(watched.audio.chunks.map((c) => c.seq)).toEqual(watched.audio.chunks.map((_, k) => k));
      const sent = watched.audio.chunks.reduce((bytes, chunk) => bytes + chunk.pcm.byteLength, 0);
      const session = await sandbox.sessionOf(encounter);
      expect(session.status).toBe('completed');
      expect(session.received_bytes, 'bytes at the service').toBeGreaterThanOrEqual(sent);
      expect(session.received_bytes - sent, 'unseen bytes sent while unloading').toBeLessThanOrEqual(
        2 * 3_200,
      );
      // The visit went without audio from the old page's last chunk to End, and its record says so.
      const gapS = (endPressedAt - watched.audio.chunks.at(-1)!.sentAt) / 1_000;
      expect(gapS, 'seconds from the old page’s last chunk to End').toBeGreaterThan(2);
      const { line, seconds: missingS } = await secondsWithoutAudio(page);
      expect(missingS, `seconds without audio in "${line}"`).toBeGreaterThanOrEqual(Math.floor(gapS) - 1);
      expect(missingS, `seconds without audio in "${line}"`).toBeLessThanOrEqual(Math.ceil(gapS) + 1);
    });
  });
}
