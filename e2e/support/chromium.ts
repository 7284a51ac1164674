import { chromium, type Browser } from '@playwright/test';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Which Chromium drives the browser-mode tests: CHROMIUM_PATH, else Debian's /usr/bin/chromium,
 * else Playwright's own download (never fetched by this project; see README).
 */
export function chromiumExecutable(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

/** Flags for a machine whose network is closed (no sync, no update checks, no QUIC probes). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

/**
 * Chromium's fake microphone playing `wav` once (`%noloop`; silence after the end) or in a loop,
 * with the permission prompt auto-accepted. No flags when there is no file.
 */
export function fakeMicrophoneFlags(wav: string | undefined, options: { loop?: boolean } = {}): string[] {
  if (!wav) return [];
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${resolve(wav)}${options.loop ? '' : '%noloop'}`,
  ];
}

/**
 * The one Chromium launch of e2e/ and bench/: the flags above and, given a WAV, the fake microphone
 * playing it (once per capture stream, or looped).
 */
export function launchChromium(options: { wav?: string; loop?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumExecutable(),
    args: [...CHROMIUM_FLAGS, ...fakeMicrophoneFlags(options.wav, { loop: options.loop })],
  });
}
