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
 *
 * `realScreenCapture`: without the fake UI. Its auto-accept also answers getDisplayMedia, with a
 * source of its own ("Could not start audio source" for a tab's sound, measured), so a spec that
 * shares a call tab leaves it out; the fake device then plays `wav` to the microphone alone, and
 * the tab's sound is the tab's.
 */
export function fakeMicrophoneFlags(
  wav: string | undefined,
  options: { loop?: boolean; realScreenCapture?: boolean } = {},
): string[] {
  if (!wav) return [];
  return [
    // Without the fake UI the microphone is still granted without a prompt, by its own switch
    // (it leaves the screen-capture picker alone).
    options.realScreenCapture
      ? '--auto-accept-camera-and-microphone-capture'
      : '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${resolve(wav)}${options.loop ? '' : '%noloop'}`,
  ];
}

/** The title of a telehealth visit's call tab (support/call-tab.ts): the browser shares its sound. */
export const CALL_TAB_TITLE = 'Telehealth call';

/**
 * A telehealth visit's call in another tab (issue 30): getDisplayMedia picks the tab titled
 * `title` by itself, as the clinician would in the browser's picker. Measured on Debian's
 * Chromium 156: the captured tab's sound is there only without Playwright's default
 * `--mute-audio` (with it the track is live but silent), so that flag is left out with it; and
 * only without the fake UI (fakeMicrophoneFlags' realScreenCapture).
 */
export function callTabFlags(title: string | undefined): { args: string[]; ignoreDefaultArgs: string[] } {
  if (!title) return { args: [], ignoreDefaultArgs: [] };
  return {
    args: [`--auto-select-tab-capture-source-by-title=${title}`],
    ignoreDefaultArgs: ['--mute-audio'],
  };
}

/**
 * The one Chromium launch of e2e/ and bench/: the flags above and, given a WAV, the fake microphone
 * playing it (once per capture stream, or looped); given a call tab's title, that tab's sound for
 * getDisplayMedia.
 */
export function launchChromium(
  options: { wav?: string; loop?: boolean; callTab?: string } = {},
): Promise<Browser> {
  const call = callTabFlags(options.callTab);
  return chromium.launch({
    executablePath: chromiumExecutable(),
    args: [
      ...CHROMIUM_FLAGS,
      ...fakeMicrophoneFlags(options.wav, {
        loop: options.loop,
        realScreenCapture: options.callTab !== undefined,
      }),
      ...call.args,
    ],
    ignoreDefaultArgs: call.ignoreDefaultArgs,
  });
}
