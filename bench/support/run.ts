/**
 * What every benchmark script shares: its flags, the checks that it can measure at all, the
 * processes it starts (Chromium through e2e/support's one launcher, browser mode, the sandbox) and
 * their clean-up on success, failure, Ctrl-C or a deadline, with a non-zero exit when it cannot measure.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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

/**
 * Chromium as it runs for a clinician: with no debugger attached while it is measured. Playwright
 * drives a page over the DevTools protocol, and while attached the browser reports every WebSocket
 * frame and more to it (in the same run it measured about 1.5 % of a core more while recording,
 * mostly in the browser process); the Electron app has no debugger. So the browser is started with
 * the very command line Playwright gives it (read from a launch of its own, so the flags match
 * every other benchmark) but on a DevTools port instead of Playwright's pipe; `drive` connects,
 * runs steps, and disconnects, which detaches every DevTools session from the page.
 *
 * As a clinician's browser in one more way (issue 40 measures the window hidden): without the three
 * flags by which Playwright keeps a page behind another tab running as if in front, and driven
 * without Playwright's page defaults (its focus emulation keeps a page visible; measured:
 * e2e/support/hideable-chromium.ts), in a window of Playwright's default page size.
 */
export async function startDetachedChromium(
  options: { wav?: string; loop?: boolean; callTab?: string } = {},
) {
  const executable = chromiumExecutable();
  if (!executable || !existsSync(executable))
    throw new CannotMeasure('no Chromium: install Debian chromium or set CHROMIUM_PATH');
  const probe = await launchChromium(options);
  // The command line of the browser it started (Debian's /usr/bin/chromium is a script that execs
  // the binary with the system's flags: taken as they are).
  const [binary, ...argv] = readFileSync(`/proc/${playwrightsChromium()}/cmdline`, 'utf8')
    .split('\0')
    .filter(Boolean);
  await probe.close();
  const userDataDir = await tempDir('bench-chromium-');
  const args = [
    ...argv.filter(
      (a) =>
        !/^--(user-data-dir|remote-debugging-pipe|no-startup-window|disable-background-timer-throttling|disable-renderer-backgrounding|disable-backgrounding-occluded-windows)\b/.test(
          a,
        ),
    ),
    '--window-size=1280,720',
    `--user-data-dir=${userDataDir}`,
    '--remote-debugging-port=0',
    'about:blank',
  ];
  const child = spawn(binary!, args, { stdio: 'ignore' });
  const stop = onCleanup(async () => {
    child.kill();
    await new Promise((resolve) => child.once('exit', resolve).once('error', resolve));
  });
  const portFile = join(userDataDir, 'DevToolsActivePort');
  for (
    let waited = 0;
    !existsSync(portFile) || readFileSync(portFile, 'utf8').split('\n').length < 2;
    waited += 50
  ) {
    if (waited > 20_000) throw new CannotMeasure('Chromium did not open its DevTools port');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const port = readFileSync(portFile, 'utf8').split('\n')[0];
  return {
    pid: child.pid!,
    /** Connects, runs `steps` on the page, disconnects (the page and the browser carry on). */
    async drive<T>(steps: (page: Page) => Promise<T>): Promise<T> {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`, {
        noDefaults: true,
      } as never);
      try {
        const context = browser.contexts()[0]!;
        const page = context.pages()[0] ?? (await context.waitForEvent('page'));
        return await steps(page);
      } finally {
        // Connected over CDP, close() only disconnects: the browser and its pages stay.
        await browser.close();
      }
    },
    close: stop,
  };
}

/** The Chromium Playwright started: a direct child of this process on Playwright's pipe. */
function playwrightsChromium(): number {
  const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
    .split(' ')
    .filter(Boolean)
    .map(Number);
  const found = children.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--remote-debugging-pipe');
    } catch {
      return false;
    }
  });
  if (found.length === 0) throw new CannotMeasure('could not find the Chromium process Playwright started');
  return found.at(-1)!;
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
