import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * axe-core over the whole page (WCAG 2.x A and AA rules): no serious or critical violation. The
 * message lists each rule with the elements it found, so a failure says what to fix.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `accessibility of the ${screen} screen`).toEqual([]);
}

/**
 * The same check in the light and the dark theme, one after the other, on the page as it stands;
 * the page is left in the light theme.
 */
export async function expectAccessibleInBothThemes(page: Page, screen: string): Promise<void> {
  for (const colorScheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAccessible(page, `${screen} (${colorScheme})`);
  }
}
