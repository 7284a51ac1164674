import { FAKE_DEVICES_STARVE, loadLeavesFakeDevicesFed } from './support/busy-machine';
import { CALL_TAB_TITLE } from './support/call-tab';
import { measureVisit } from './support/echo-study';
import { expect, test } from './support/external-service';
import { TELEHEALTH } from './support/telehealth-visit';

/**
 * Issue 30's echo study with speakers, where the microphone hears the call too: the visit as the
 * app records it, and with "Echo cancellation" on in Settings. e2e/support/echo-study.ts says what
 * is measured and why.
 */
test.use({ fakeMicrophone: TELEHEALTH.speakers, callTab: CALL_TAB_TITLE });
// The study lines two fake captures up (this page's microphone, the call tab's Chromium): with
// less than two full cores their threads starve and drift apart, which measures Chromium, not the
// app (at half speed each turn r 0.88-0.95, the echo -23 dB; docs/telehealth.md). The app's echo
// detector is unit-tested (call-echo.test.ts) and telehealth.spec still records both sources.
test.skip(!loadLeavesFakeDevicesFed(), FAKE_DEVICES_STARVE);
test.skip(
  ({ target }) => target !== 'browser',
  'Electron carries chunks over IPC, which a test cannot read; browser mode runs the same renderer code.',
);

/** Measured once in nine visits: the call started the echo's delay (100 ms) after the microphone. */
const ECHO_ON_THE_CALL =
  'the echo fell on the call’s own copy of the patient in every turn: one sound at the service, nothing to measure';

// The app's headset notice came in 5 visits of 8 until session 25: an echo half a chunk from the
// call's copy correlated at about 0.7 by whole chunks, and the detector (call-echo.ts) now judges
// half chunks. With the calibration's skip forced off, 6 visits of 6 asked for a headset here.
test('as the app records it: the echo reaches the service, and the window asks for a headset', async ({
  scribe,
  sandbox,
  watched,
}) => {
  const figures = await measureVisit(scribe.page, sandbox, watched, 'speakers', false);
  test.skip(figures.echoUnderCallDb === null, ECHO_ON_THE_CALL);
  expect(figures.echoUnderCallDb!, 'the patient through the microphone, under the call (dB)').toBeGreaterThan(
    -15,
  );
  expect(figures.askedForHeadset).toBe(true);
});

test('with echo cancellation on: the echo is taken out before the service', async ({
  scribe,
  sandbox,
  watched,
}) => {
  const figures = await measureVisit(scribe.page, sandbox, watched, 'speakers', true);
  test.skip(figures.echoUnderCallDb === null, ECHO_ON_THE_CALL);
  // The file's echo is −6 dB under the call; what Chromium's canceller leaves of it, each patient
  // turn fitted where the microphone's timeline was, measured −16.3 to −17.6 dB over four visits
  // (−2.3 to −6.0 with it off). A bound 7 dB under the file's echo: cancellation at work, with
  // room for a turn that the canceller relearns after the fake microphone skipped a read.
  expect(figures.echoUnderCallDb!, 'the patient through the microphone, under the call (dB)').toBeLessThan(
    -13,
  );
  expect(figures.askedForHeadset).toBe(false);
});
