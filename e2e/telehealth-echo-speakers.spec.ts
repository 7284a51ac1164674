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

// Not run until the study aligns its two captures by their audio (issue 36, left open there): the
// echo is measured between two of Chromium's fake captures (the microphone's file and the call tab),
// whose alignment drifts when their device threads starve (docs/reliability.md, "A machine half as
// fast"). On the 2-core CI machine of session 15 it failed 3 tries of 3 in a full run (the echo read
// -30.5, -4.6 and -16.5 dB under the call; the headset notice came once) and 1 of 2 alone at
// 3abb92b, before that session's changes. Its twin below (echo cancellation on) passes.
test.fixme('as the app records it: the echo reaches the service, and the window asks for a headset', async ({
  scribe,
  sandbox,
  watched,
}) => {
  const figures = await measureVisit(scribe.page, sandbox, watched, 'speakers', false);
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
  expect(figures.echoUnderCallDb!, 'the patient through the microphone, under the call (dB)').toBeLessThan(
    -25,
  );
  expect(figures.askedForHeadset).toBe(false);
});
