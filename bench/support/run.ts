/**
 * What every benchmark script shares: its flags, the checks that it can measure at all, the
 * processes it starts (Chromium through e2e/support's one launcher, browser mode, the sandbox) and
 * their clean-up on success, failure, Ctrl-C or a deadline, with a non-zero exit when it cannot measure.
 */
import type { Browser } from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHostProcess } from '../../e2e/support/browser-host-process';
import { chromiumExecutable, launchChromium } from '../../e2e/support/chromium';
import { startSandboxProcess, type SandboxProcessOptions } from '../../sandbox/test-support/sandbox-process';

/** Fewer rounds, for developing the script (the numbers are not for the report). */
export const QUICK = process.argv.includes('--quick');

/** `--name N` on the command line, or `fallback`. */
export function numberArg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

/** The committed conversation: 8 turns, an 8 s silence in the middle. */
export const CONVERSATION_WAV = 'e2e/fixtures/conversation.wav';
export const CONVERSATION_TURNS = 'e2e/fixtures/conversation.turns.json';

/** The benchmark cannot measure (no build, no browser, the app did not get there): say why and exit 1. */
export class CannotMeasure extends Error {}

const cleanups: (() => Promise<unknown>)[] = [];

/** Runs `stop` when the script ends (last registered first); returns a function that runs it now. */
export function onCleanup(stop: () => Promise<unknown>): () => Promise<void> {
  cleanups.push(stop);
  return async () => {
    if (cleanups.includes(stop)) cleanups.splice(cleanups.indexOf(stop), 1);
    await stop().catch(() => undefined);
  };
}

/** `npm run build` output that browser mode and the sandbox run from. */
export function requireBuild(): void {
  const missing = ['out/main/browser.js', 'out/main/sandbox.js', 'out/renderer/index.html'].filter(
    (file) => !existsSync(file),
  );
  if (missing.length > 0)
    throw new CannotMeasure(`no build (${missing.join(', ')} missing): run npm run build first`);
}

/** Chromium (e2e/support/chromium.ts); with `wav`, its fake microphone plays the file. */
export async function startChromium(options: { wav?: string; loop?: boolean } = {}): Promise<Browser> {
  const executable = chromiumExecutable();
  if (!executable || !existsSync(executable))
    throw new CannotMeasure('no Chromium: install Debian chromium or set CHROMIUM_PATH');
  const browser = await launchChromium(options);
  onCleanup(() => browser.close());
  return browser;
}

export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Browser mode (`node out/main/browser.js`) on a new, empty data directory: the first-run screen. */
export async function startApp() {
  const dataDir = await tempDir('scribe-bench-');
  const host = await startHostProcess(dataDir);
  return { host, dataDir, close: onCleanup(() => host.stop()) };
}

/** The sandbox as its own process (`out/main/sandbox.js`) on a new data directory, time scale 1 unless told. */
export async function startSandbox(options: Partial<Omit<SandboxProcessOptions, 'dataDir'>> = {}) {
  const sandbox = await startSandboxProcess({
    timeScale: 1,
    ...options,
    dataDir: await tempDir('bench-sb-'),
  });
  onCleanup(() => sandbox.stop());
  return sandbox;
}

/**
 * Runs a benchmark's body: exit 0 once it has written its section, 1 with the reason if it could not
 * measure or failed, 130 on Ctrl-C or SIGTERM; whatever it started is stopped in every case.
 */
export function runBenchmark(name: string, deadlineMs: number, body: () => Promise<void>): void {
  const started = Date.now();
  const finish = async (code: number) => {
    clearTimeout(deadline);
    while (cleanups.length > 0) await cleanups.pop()!().catch(() => undefined);
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(`bench/${name}: ${code === 0 ? 'done' : 'stopped'} after ${seconds} s`);
    process.exit(code);
  };
  const deadline = setTimeout(() => {
    console.error(`bench/${name}: no result after ${deadlineMs / 1000} s; giving up`);
    void finish(1);
  }, deadlineMs);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void finish(130));
  }
  body().then(
    () => finish(0),
    (error: unknown) => {
      const why = error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.error(
        error instanceof CannotMeasure
          ? `bench/${name}: cannot measure: ${error.message}`
          : `bench/${name} failed: ${why}`,
      );
      return finish(1);
    },
  );
}
