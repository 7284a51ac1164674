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
test.skip(
  ({ target }) => target !== 'browser',
  'Electron carries chunks over IPC, which a test cannot read; browser mode runs the same renderer code.',
);

test('as the app records it: both voices as they were, no echo, no headset asked for', async ({
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
