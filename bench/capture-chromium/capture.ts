/** One capture in the harness page, with the browser's CPU time counted over a fixed window. */
import type { Page } from '@playwright/test';
import { cpuPercent, processTimes, type CpuUse, type Launched } from './chromium';
import type { CaptureConfig, CaptureResult, CaptureStarted, HarnessApi, ProbeResult } from './harness/api';

/** Between opening the microphone and starting the CPU window: page-side setup is not capture. */
const SETTLE_MS = 500;

export interface Capture {
  started: CaptureStarted;
  result: CaptureResult;
  /** % of one core over the window, by process role. */
  cpu: CpuUse;
  windowSeconds: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// page.evaluate() sends these functions' source to the page, so each names the harness itself.
const start = (page: Page, config: CaptureConfig): Promise<CaptureStarted> =>
  page.evaluate((c) => (globalThis as unknown as { harness: HarnessApi }).harness.start(c), config);
const stop = (page: Page): Promise<CaptureResult> =>
  page.evaluate(() => (globalThis as unknown as { harness: HarnessApi }).harness.stop());
export const probe = (page: Page): Promise<ProbeResult> =>
  page.evaluate(() => (globalThis as unknown as { harness: HarnessApi }).harness.probe());

/**
 * Opens the microphone as `config` says, lets it settle, counts CPU for `seconds` (this process
 * only sleeps meanwhile), then stops and collects the chunks. Each capture opens a new stream, so
 * the fake device plays its file from the start again.
 */
export async function capture(launched: Launched, config: CaptureConfig, seconds: number): Promise<Capture> {
  const started = await start(launched.page, config);
  try {
    await sleep(SETTLE_MS);
    const before = processTimes(launched.pid);
    const from = performance.now();
    await sleep(seconds * 1000);
    const after = processTimes(launched.pid);
    const windowSeconds = (performance.now() - from) / 1000;
    const result = await stop(launched.page);
    return { started, result, cpu: cpuPercent(before, after, windowSeconds), windowSeconds };
  } catch (error) {
    await stop(launched.page).catch(() => undefined);
    throw error;
  }
}
