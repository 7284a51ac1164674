import { endMidWordRuns, FIXTURE, watchEndTail } from './support/end-tail-check';
import { test, useExternalService } from './support/external-service';

/**
 * Issue 14, "the tail at End", and issue 37, "End keeps the last words": everything the microphone
 * heard up to the press reaches the service, the audio since the last full chunk as a final,
 * shorter chunk, so a word spoken as End is pressed is not clipped. Judged on the fixture's timeline
 * (support/end-tail-check.ts); end-tail-under-load.spec.ts does the same on a busy machine.
 */
test.use({ fakeMicrophone: FIXTURE });
test.skip(({ target }) => target !== 'browser', 'Browser mode times what the page sends; Electron uses IPC.');

test('End in the middle of a word: the service’s audio ends within 20 ms of what the microphone had heard at the press', async ({
  scribe,
  sandbox,
}) => {
  test.setTimeout(240_000);
  const { page } = scribe;
  const audio = await watchEndTail(page);
  await page.reload();
  await useExternalService(page, sandbox.url, 'dr-tail');
  await endMidWordRuns(page, audio, sandbox, 'tail');
});
