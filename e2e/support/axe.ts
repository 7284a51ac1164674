import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * axe-core over the whole page (WCAG 2.x A and AA rules): no serious or critical violation. The
 * message lists each rule with the elements it found, so a failure says what to fix.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  await untilTransitionsEnd(page);
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `accessibility of the ${screen} screen`).toEqual([]);
}

/**
 * Waits until no transition or animation that ends is running: the screen as it stands, not a
 * frame of a control fading out (measured: a section's controls at part opacity, their contrast
 * failed, when the scan began within the 120 ms fade after the focus left them). A spinner's
 * endless turn does not hold the wait.
 */
async function untilTransitionsEnd(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
    undefined,
    { timeout: 5_000 },
  );
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
