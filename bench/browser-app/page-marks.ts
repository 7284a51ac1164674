/**
 * Timestamps taken in the page itself: a MutationObserver (installed before the app's scripts run)
 * notes each change of what a probe watches — an element's text or an attribute — with the page's
 * own clock as epoch ms (`performance.timeOrigin + performance.now()`), so the times compare with
 * `Date.now()` in Node and with the sandbox's timeline. The DOM change is recorded when React
 * commits it; the paint follows within a frame.
 */
import type { Page } from '@playwright/test';

export interface Probe {
  name: string;
  /** The first element matching this is watched. */
  selector: string;
  /** Watch this attribute instead of the text. */
  attribute?: string;
}

export interface Mark {
  name: string;
  value: string;
  /** Epoch ms (page clock). */
  at: number;
}

/**
 * The observer, as source text: a function handed to addInitScript would be serialized from what
 * tsx compiled, and esbuild's name-keeping helper (`__name`) does not exist in the page.
 */
const OBSERVER = `(probes) => {
  // One list per window, should the script run again in it.
  const marks = (window.__benchMarks ??= []);
  const last = new Map();
  new MutationObserver(() => {
    for (const probe of probes) {
      const element = document.querySelector(probe.selector);
      const value = element
        ? probe.attribute ? element.getAttribute(probe.attribute) : (element.textContent ?? '')
        : null;
      if (value === (last.get(probe.name) ?? null)) continue;
      last.set(probe.name, value);
      if (value !== null) marks.push({ name: probe.name, value, at: performance.timeOrigin + performance.now() });
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
}`;

/** Starts recording on every document the page loads from now on. */
export async function recordMarks(page: Page, probes: Probe[]): Promise<void> {
  await page.addInitScript({ content: `(${OBSERVER})(${JSON.stringify(probes)});` });
}

/** Every mark so far, in order. */
export function readMarks(page: Page): Promise<Mark[]> {
  return page.evaluate<Mark[]>('window.__benchMarks ?? []');
}

/** When `name` first showed `value` (epoch ms), if it did. */
export function firstMark(marks: Mark[], name: string, value: string | RegExp): number | undefined {
  const matches = (v: string) => (typeof value === 'string' ? v.trim() === value : value.test(v));
  return marks.find((m) => m.name === name && matches(m.value))?.at;
}
