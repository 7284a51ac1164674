import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';
import { openSettings, saveAndGoBack, tryTheDemo } from './support/workspace';

/**
 * Every screen a clinician meets before recording (the first run's two doors, the ready visit,
 * the menu, both settings pages) passes axe-core with no serious or critical
 * violation, in the light and the dark theme, and can be operated from the keyboard. The results
 * screen is checked at the end of e2e/visit.spec.ts, after a real recording.
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

for (const scheme of ['light', 'dark'] as const) {
  test(`the setup and visit screens are accessible (${scheme})`, async ({ scribe }) => {
    const { page } = scribe;
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.getByRole('heading', { name: 'Welcome to Ambient Scribe' })).toBeVisible();
    await expectAccessible(page, `first run (${scheme})`);
    // The organisation's door, with every missing field named at once.
    await page.getByRole('button', { name: 'Connect to your organisation’s service' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByLabel('Partner ID')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page, `service setup with problems (${scheme})`);
    await page.getByRole('button', { name: 'Back' }).click();

    await tryTheDemo(page);
    await expect(page.getByRole('button', { name: 'Start recording' })).toBeVisible();
    await expectAccessible(page, `ready (${scheme})`);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('menuitem', { name: 'Settings' })).toBeVisible();
    await expectAccessible(page, `menu open (${scheme})`);
    await page.keyboard.press('Escape');
    await openSettings(page, 'Recording and display');
    await expectAccessible(page, `settings: recording and display (${scheme})`);
    await openSettings(page, 'Service (for IT)');
    await expectAccessible(page, `settings: service (${scheme})`);
    await page.getByRole('button', { name: 'Back to the visit' }).click();
    await page.getByText('Note and forms').click();
    await page.getByRole('button', { name: 'Add a custom form' }).click();
    await page.getByLabel('Form ID').fill('intake2');
    await expectAccessible(page, `visit (${scheme})`);
  });
}

test('the visit can be started from the keyboard alone, with focus always visible', async ({ scribe }) => {
  const { page } = scribe;
  await tryTheDemo(page);
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
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);
});

test('the theme follows the computer, and a theme chosen in Settings wins over it', async ({ scribe }) => {
  const { page } = scribe;
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(background).toBe('rgb(21, 24, 29)');
  await tryTheDemo(page);
  await openSettings(page, 'Recording and display');
  await page.getByLabel('Theme').selectOption('light');
  await saveAndGoBack(page);
  await expect.poll(background).toBe('rgb(246, 247, 249)');
  await expectAccessible(page, 'visit (light theme on a dark computer)');
});
