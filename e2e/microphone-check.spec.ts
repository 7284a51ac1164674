import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';
import { tryTheDemo } from './support/workspace';

/** The mic check before a visit, with Chromium's fake microphone playing the conversation. */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

test('the microphone can be checked before the visit, and nothing is recorded', async ({ scribe }) => {
  const { page } = scribe;
  // Every audio frame the page sends to main (binary frames on the contract socket).
  let audioFrames = 0;
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      if (typeof payload !== 'string') audioFrames++;
    }),
  );
  await page.reload();
  await tryTheDemo(page);
  await page.getByRole('button', { name: 'Check the microphone' }).click();
  await expect(page.getByTestId('mic-check-device')).toContainText('Listening to');
  // The fake microphone plays the conversation: the meter moves off the floor.
  await expect
    .poll(async () => Number(await page.getByTestId('level-meter').getAttribute('aria-valuenow')), {
      timeout: 10_000,
    })
    .toBeGreaterThan(-60);
  await expectAccessible(page, 'microphone check');
  await page.getByRole('button', { name: 'Stop the microphone check' }).click();
  await expect(page.getByTestId('level-meter')).toHaveCount(0);
  await expect(page.getByTestId('recorder-state')).toHaveText('Ready to record');
  expect(audioFrames).toBe(0);
});
