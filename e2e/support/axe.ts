import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Scans that may each be spoiled by a transition starting inside them before the check gives up. */
const SCANS_BEFORE_GIVING_UP = 3;

/** The events by which a page says a transition or an animation has started. */
const MOTION_STARTS = ['transitionrun', 'animationstart'];

/**
 * axe-core over the whole page (WCAG 2.x A and AA rules): no serious or critical violation. The
 * message lists each rule with the elements it found, so a failure says what to fix. The verdict
 * comes from a scan of a still screen: a scan inside which a transition or animation started has
 * read a frame of it, and is made again once it ends.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  for (let scan = 1; ; scan += 1) {
    await untilTransitionsEnd(page);
    await page.evaluate(startNotingMotion, MOTION_STARTS);
    const { violations } = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21aa'])
      .analyze();
    const moved = await page.evaluate(stopNotingMotion, MOTION_STARTS);
    if (moved.length === 0) {
      const serious = violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(serious, `accessibility of the ${screen} screen`).toEqual([]);
      return;
    }
    if (scan === SCANS_BEFORE_GIVING_UP) {
      throw new Error(
        `accessibility of the ${screen} screen: it never stood still through a scan; in the last, ${[...new Set(moved)].join(', ')}`,
      );
    }
  }
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
 * Notes every transition or animation that starts from now on. Needed because a still page can
 * start one by itself: Chromium moves the hover after a layout on a timer of its own, so the
 * pointer left where End was comes to rest on the note's first section a moment after it
 * appears, and that section's controls fade in (measured: the scan read them at 1.53:1 and
 * 4.45:1 mid-fade, in the dark theme, with three visits at once).
 */
function startNotingMotion(motionStarts: string[]): void {
  const noted: string[] = [];
  const note = (event: Event): void => {
    const target = event.target as Element;
    const what = event instanceof TransitionEvent ? event.propertyName : 'an animation';
    noted.push(
      `${what} of ${target.getAttribute('aria-label') ?? target.getAttribute('class') ?? target.tagName} started`,
    );
  };
  for (const type of motionStarts) document.addEventListener(type, note, true);
  (window as unknown as Record<string, unknown>).__scanMotion = { noted, note };
}

/**
 * Stops noting and says what started since startNotingMotion (a page loaded since counts). Both
 * run in the page, so the event names come in as an argument rather than from this module.
 */
function stopNotingMotion(motionStarts: string[]): string[] {
  const holder = window as unknown as Record<string, { noted: string[]; note: EventListener } | undefined>;
  const motion = holder.__scanMotion;
  if (motion === undefined) return ['a new page'];
  for (const type of motionStarts) document.removeEventListener(type, motion.note, true);
  delete holder.__scanMotion;
  return motion.noted;
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
