import { FAKE_DEVICES_STARVE, keepBusy, loadLeavesFakeDevicesFed } from './support/busy-machine';
import { endMidWordRuns, FIXTURE, watchEndTail } from './support/end-tail-check';
import { test, useExternalService } from './support/external-service';

/**
 * Issue 37, finding 2: on a busy machine the capture path (Web Audio's input FIFO, the callbacks)
 * held up to half a second of what the microphone had heard, and End cut it off. Here two processes
 * spin on the machine's cores for the whole visit, as an EHR or a scan would; End must still take
 * everything heard up to the press (support/end-tail-check.ts). It runs alone (playwright.config.ts,
 * the "alone" phase): its load is meant for the app, not for other tests.
 */
test.use({ fakeMicrophone: FIXTURE });
test.skip(({ target }) => target !== 'browser', 'Browser mode times what the page sends; Electron uses IPC.');
test.skip(!loadLeavesFakeDevicesFed(), FAKE_DEVICES_STARVE);

test('End on a machine two other processes keep busy: the service’s audio still ends within 20 ms of what the microphone had heard', async ({
  scribe,
  sandbox,
}) => {
  test.setTimeout(300_000);
  const { page } = scribe;
  const audio = await watchEndTail(page);
  await page.reload();
  await useExternalService(page, sandbox.url, 'dr-busy');
  const busy = keepBusy(2);
  try {
    await endMidWordRuns(page, audio, sandbox, 'busy');
  } finally {
    busy.stop();
  }
});
