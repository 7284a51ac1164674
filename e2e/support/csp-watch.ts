import type { Page } from '@playwright/test';

/** What the page reports about its Content Security Policy from now on, across reloads. */
export interface CspWatch {
  /** `securitypolicyviolation` events of the page and its frames: directive, what was blocked, where. */
  violations: string[];
  /** Console messages (page and workers) that mention the CSP: Chromium's "Refused to …" lines. */
  consoleMessages: string[];
}

/**
 * Starts watching `page`. Takes effect at the next load: the listener is an init script, so it is
 * in place before any of the page's own scripts run.
 */
export async function watchCsp(page: Page): Promise<CspWatch> {
  const watch: CspWatch = { violations: [], consoleMessages: [] };
  await page.exposeFunction('__scribeTestCspViolation', (line: string) => watch.violations.push(line));
  await page.addInitScript(() => {
    const report = (window as unknown as { __scribeTestCspViolation(line: string): void })
      .__scribeTestCspViolation;
    document.addEventListener('securitypolicyviolation', (event) =>
      report(
        `${event.effectiveDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`,
      ),
    );
  });
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) watch.consoleMessages.push(message.text());
  });
  return watch;
}
