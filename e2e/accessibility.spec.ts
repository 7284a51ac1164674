import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';

/**
 * Every screen a clinician meets before recording passes axe-core with no serious or critical
 * violation, in the light and the dark theme, and can be operated from the keyboard. The results
 * screen is checked at the end of e2e/visit.spec.ts, after a real recording.
 */
for (const scheme of ['light', 'dark'] as const) {
  test(`the setup and visit screens are accessible (${scheme})`, async ({ scribe }) => {
    const { page } = scribe;
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.getByRole('heading', { name: 'Set up the documentation service' })).toBeVisible();
    await expectAccessible(page, `setup (${scheme})`);

    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('button', { name: 'Start recording' })).toBeVisible();
    await page.getByText('Note and forms').click();
    await page.getByRole('button', { name: 'Add a custom form' }).click();
    await page.getByLabel('Form ID').fill('intake2');
    await expectAccessible(page, `visit (${scheme})`);
  });
}

test('the visit can be started from the keyboard alone, with focus always visible', async ({ scribe }) => {
  const { page } = scribe;
  await page.getByRole('button', { name: 'Save' }).click();
  const start = page.getByRole('button', { name: 'Start recording' });
  await expect(start).toBeVisible();
  // Tab through the visit screen until Start has focus; every stop shows a focus outline.
  for (let stop = 0; stop < 40; stop++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      const name = active
        ? `${active.tagName.toLowerCase()} ${active.getAttribute('aria-label') ?? active.textContent?.slice(0, 30) ?? ''}`
        : '';
      return {
        name,
        outline: active && active !== document.body ? getComputedStyle(active).outlineStyle : 'none',
      };
    });
    expect(focused.outline, `focus outline at tab stop ${stop + 1} (${focused.name})`).not.toBe('none');
    if (await start.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(start).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('recorder-state')).not.toHaveText('Ready to record');
});

test('the theme follows the computer, and a theme chosen in Settings wins over it', async ({ scribe }) => {
  const { page } = scribe;
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(background).toBe('rgb(21, 24, 29)');
  await page.getByLabel('Theme').selectOption('light');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(background).toBe('rgb(246, 247, 249)');
  await expectAccessible(page, 'visit (light theme on a dark computer)');
});
