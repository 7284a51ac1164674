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
// Up to two more tries, reported as flaky, never as passed: the echo is measured between two of
// Chromium's fake captures (the microphone's file and the call tab), whose alignment drifts when
// their device threads starve (docs/reliability.md, "A machine half as fast"). Measured on one
// machine, alone, before and after issue 36's changes alike: the echo read -4.7 to -21.2 dB under
// the call and the headset notice came in about half the runs. A stopgap until the study aligns
// the two by the audio itself instead of by their start (issue 36's closing note).
test.describe.configure({ retries: 2 });
test.skip(
  ({ target }) => target !== 'browser',
  'Electron carries chunks over IPC, which a test cannot read; browser mode runs the same renderer code.',
);

test('as the app records it: the echo reaches the service, and the window asks for a headset', async ({
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
