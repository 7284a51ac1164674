import { FAKE_DEVICES_STARVE, loadLeavesFakeDevicesFed } from './support/busy-machine';
import { CALL_TAB_TITLE } from './support/call-tab';
import { measureVisit } from './support/echo-study';
import { expect, test } from './support/external-service';
import { TELEHEALTH } from './support/telehealth-visit';

/**
 * Issue 30's echo study with a headset, where the microphone hears the clinician alone: the visit
 * as the app records it, and with "Echo cancellation" on in Settings. e2e/support/echo-study.ts
 * says what is measured and why.
 */
test.use({ fakeMicrophone: TELEHEALTH.headset, callTab: CALL_TAB_TITLE });
// The study lines two fake captures up (this page's microphone, the call tab's Chromium): with
// less than two full cores their threads starve and drift apart, which measures Chromium, not the
// app (at half speed each turn r 0.88-0.95, the echo -23 dB; docs/telehealth.md). The app's echo
// detector is unit-tested (call-echo.test.ts) and telehealth.spec still records both sources.
test.skip(!loadLeavesFakeDevicesFed(), FAKE_DEVICES_STARVE);
test.skip(
  ({ target }) => target !== 'browser',
  'Electron carries chunks over IPC, which a test cannot read; browser mode runs the same renderer code.',
);

// Not run until the study aligns its two captures by their audio (issue 36, left open there), as
// its twin in telehealth-echo-speakers.spec: in session 16's two full runs on this 2-core machine it
// passed once and failed once (a turn at r 0.88 against 0.95), and failed at half speed (r 0.949).
// Both voices reaching the service as they were is still checked by telehealth.spec, by the turn.
test.fixme('as the app records it: both voices as they were, no echo, no headset asked for', async ({
  scribe,
  sandbox,
  watched,
}) => {
  const figures = await measureVisit(scribe.page, sandbox, watched, 'headset', false);
  expect(figures.askedForHeadset).toBe(false);
  // Both voices reach the service as they were (the speakers' echo and echo cancellation change them).
  for (const r of [...figures.correlation.clinician, ...figures.correlation.patient])
    expect(r, 'each turn at the service against its source').toBeGreaterThan(0.95);
});

test('with echo cancellation on: what it costs the voices when there is no echo', async ({
  scribe,
  sandbox,
  watched,
}) => {
  const figures = await measureVisit(scribe.page, sandbox, watched, 'headset', true);
  expect(figures.askedForHeadset).toBe(false);
});
