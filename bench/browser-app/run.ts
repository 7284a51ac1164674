/**
 * What every browser benchmark script shares: the `--quick` flag, the checks that it can measure at
 * all (a build, a Chromium), clean-up of what it started on success, failure, Ctrl-C or a deadline,
 * and a clear message with a non-zero exit when it cannot measure.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { chromiumExecutable } from '../../e2e/support/chromium';

const START_LOAD = loadavg()[0]!;

/** Fewer rounds, for developing the script (the numbers are not for the report). */
export const QUICK = process.argv.slice(2).includes('--quick');

/** The benchmark cannot measure (no build, no browser, the app did not get there): say why and exit 1. */
export class CannotMeasure extends Error {}

const cleanups: (() => Promise<unknown>)[] = [];

/** Runs `stop` when the script ends, in reverse order of registration; returns a function that runs it now. */
export function onCleanup(stop: () => Promise<unknown>): () => Promise<void> {
  cleanups.push(stop);
  return async () => {
    const at = cleanups.indexOf(stop);
    if (at >= 0) cleanups.splice(at, 1);
    await stop().catch(() => undefined);
  };
}

async function cleanUp(): Promise<void> {
  while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
}

/** `npm run build` output that browser mode and the sandbox run from. */
export function requireBuild(): void {
  const needed = ['out/main/browser.js', 'out/main/sandbox.js', 'out/renderer/index.html'];
  const missing = needed.filter((file) => !existsSync(file));
  if (missing.length > 0)
    throw new CannotMeasure(`no build (${missing.join(', ')} missing): run npm run build first`);
}

export function requireChromium(): string {
  const executable = chromiumExecutable();
  if (!executable || !existsSync(executable))
    throw new CannotMeasure('no Chromium: install Debian chromium or set CHROMIUM_PATH');
  return executable;
}

/**
 * Runs a benchmark's body: exit 0 once it has written its section, 1 with the reason if it could not
 * measure or failed, 130 on Ctrl-C or SIGTERM; whatever it started is stopped in every case.
 */
export function runBenchmark(name: string, deadlineMs: number, body: () => Promise<void>): void {
  const started = Date.now();
  const finish = async (code: number) => {
    clearTimeout(deadline);
    await cleanUp();
    console.log(`bench/${name}: ${code === 0 ? 'done' : 'stopped'} after ${seconds(started)} s`);
    process.exit(code);
  };
  const deadline = setTimeout(() => {
    console.error(`bench/${name}: no result after ${deadlineMs / 1000} s; giving up`);
    void finish(1);
  }, deadlineMs);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`bench/${name}: ${signal}, cleaning up`);
      void finish(130);
    });
  }
  body().then(
    () => finish(0),
    (error: unknown) => {
      console.error(
        error instanceof CannotMeasure
          ? `bench/${name}: cannot measure: ${error.message}`
          : `bench/${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return finish(1);
    },
  );
}

/** Whole seconds since `since` (Date.now()). */
export function seconds(since: number): number {
  return Math.round((Date.now() - since) / 1000);
}

/** The 1-minute load average when the script started and now: other work on the machine shows here. */
export function loadNote(): string {
  return `load average ${START_LOAD.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end`;
}
