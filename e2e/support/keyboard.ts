import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Moves the focus with Tab (or Shift+Tab) until `target` has it, as a keyboard user would, and
 * fails naming where the focus got to when `max` presses do not reach it: the path the test means is
 * walked, never jumped over with `focus()`.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  { backward = false, max = 60 }: { backward?: boolean; max?: number } = {},
): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(backward ? 'Shift+Tab' : 'Tab');
  }
  const at = await page.evaluate(() => {
    const el = document.activeElement;
    return el
      ? `${el.tagName.toLowerCase()} "${el.getAttribute('aria-label') ?? el.textContent?.slice(0, 40)}"`
      : 'nothing';
  });
  await expect(
    target,
    `${max} presses of ${backward ? 'Shift+Tab' : 'Tab'} did not reach it (the focus is on ${at})`,
  ).toBeFocused({ timeout: 1 });
}
