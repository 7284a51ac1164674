/**
 * The processes a browser benchmark drives: Chromium (with the conversation as its fake microphone
 * when asked), browser mode (`node out/main/browser.js`) on a fresh data directory, and the sandbox as
 * its own process. Each is stopped, and its data removed, when the script ends.
 */
import { chromium, type Browser } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHostProcess, type HostProcess } from '../../e2e/support/browser-host-process';
import { CHROMIUM_FLAGS, fakeMicrophoneFlags } from '../../e2e/support/chromium';
import {
  startSandboxProcess,
  type SandboxProcess,
  type SandboxProcessOptions,
} from '../../e2e/support/sandbox-process';
import { onCleanup, requireChromium } from './run';

/** The committed conversation: 8 turns, an 8 s silence in the middle (e2e/fixtures/conversation.turns.json). */
export const CONVERSATION_WAV = 'e2e/fixtures/conversation.wav';

/** Chromium; with `wav`, its fake microphone plays the file once per capture stream (then silence). */
export async function launchChromium(options: { wav?: string } = {}): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: requireChromium(),
    args: [...CHROMIUM_FLAGS, ...fakeMicrophoneFlags(options.wav)],
  });
  onCleanup(() => browser.close());
  return browser;
}

export interface App {
  host: HostProcess;
  dataDir: string;
  /** Stops the host and removes its data directory now (also done at exit). */
  close(): Promise<void>;
}

/** Browser mode on a new, empty data directory: the first-run screen. */
export async function startApp(): Promise<App> {
  const dataDir = await mkdtemp(join(tmpdir(), 'scribe-bench-'));
  const removeDir = onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  const host = await startHostProcess(dataDir);
  const stopHost = onCleanup(() => host.stop());
  return {
    host,
    dataDir,
    async close() {
      await stopHost();
      await removeDir();
    },
  };
}

/** The sandbox in its own process on a new data directory (time scale 1 unless told). */
export async function startSandbox(
  options: Partial<Omit<SandboxProcessOptions, 'dataDir'>> = {},
): Promise<SandboxProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'scribe-bench-sandbox-'));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  const sandbox = await startSandboxProcess({ timeScale: 1, ...options, dataDir });
  onCleanup(() => sandbox.stop());
  return sandbox;
}
