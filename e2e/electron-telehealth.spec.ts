import type { ElectronApplication } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { release } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { systemAudioSupport } from '../src/main/core/system-audio';
import { expect, test } from './support/fixtures';
import { TELEHEALTH, chooseTelehealth } from './support/telehealth-visit';
import { tryTheDemo } from './support/workspace';

/**
 * Issue 30 in the desktop app: a telehealth visit records this computer's sound through Electron's
 * loopback (main-window.ts grants getDisplayMedia 'loopback', core/system-audio.ts says where). A
 * second window of the app plays the patient's side, as a call app would through the speakers;
 * loopback takes everything the computer plays, that window included. Browser mode's call tab is
 * covered by e2e/telehealth.spec.ts; this is the shell's half, on a machine with the runtime.
 */
test.skip(
  ({ target }) => target !== 'electron',
  'the loopback of the system’s sound exists only in Electron',
);
test.use({ fakeMicrophone: TELEHEALTH.headset });

const support = systemAudioSupport(process.platform, release());
/** Linux loops back PulseAudio's (or PipeWire's) monitor: a machine without that server has no system sound. */
const soundServer = process.platform !== 'linux' || spawnSync('pactl', ['info']).status === 0;

test('a telehealth visit records what the computer plays: the call’s bar moves while only the patient speaks', async ({
  scribe,
}) => {
  test.skip(!support.loopback, `this system gives no sound to record: ${support.reason}`);
  test.skip(!soundServer, 'no PulseAudio or PipeWire server runs here to loop back');
  test.setTimeout(120_000);
  const electron = scribe.electron!;
  const { page } = scribe;
  await tryTheDemo(page);
  await chooseTelehealth(page);
  await page.getByLabel('Encounter ID').fill('loopback1');
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/, { timeout: 20_000 });
  // Granted by the shell without a picker, as "System audio".
  await expect(page.getByTestId('call-state')).toHaveText(/Recording this computer’s sound too/);

  // The call: a window of its own plays the patient's side through the computer's speakers.
  const call = pathToFileURL(resolve(TELEHEALTH.call)).href;
  await electron.evaluate(async ({ BrowserWindow }, url) => {
    const window = new BrowserWindow({
      show: false,
      webPreferences: { autoplayPolicy: 'no-user-gesture-required' },
    });
    await window.loadURL(`data:text/html,<audio src="${url}" autoplay></audio>`);
  }, call);
  // The patient's first turn starts 4.7 s into the call; the clinician's microphone is quiet then.
  await expect
    .poll(async () => Number(await page.getByTestId('call-level-meter').getAttribute('aria-valuenow')), {
      timeout: 20_000,
    })
    .toBeGreaterThan(-40);
  await page.getByRole('button', { name: 'End visit' }).click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });
});

/** Runs `code` in the app's page as if the clinician had just pressed something (getDisplayMedia wants that). */
async function inThePage<T>(electron: ElectronApplication, code: string): Promise<T> {
  return electron.evaluate(
    async ({ BrowserWindow }, source) =>
      BrowserWindow.getAllWindows()[0]!.webContents.executeJavaScript(source, true),
    code,
  ) as Promise<T>;
}

test('the shell gives the computer’s sound to the app’s own page only, in a telehealth visit, never a screen', async ({
  scribe,
}) => {
  test.skip(!support.loopback, `this system gives no sound to record: ${support.reason}`);
  const electron = scribe.electron!;
  const { page } = scribe;
  await tryTheDemo(page);

  // In the room (the default) nothing but the microphone is granted: neither getDisplayMedia nor
  // a legacy desktop getUserMedia, which Electron would answer itself with the screen
  // (permission-policy.ts: the two look the same to the permission handler).
  const inTheRoom = await inThePage<{ display: string; desktop: string }>(
    electron,
    `(async () => {
      const outcome = (promise) => promise.then((stream) => {
        stream.getTracks().forEach((track) => track.stop());
        return 'granted';
      }, (error) => error.name);
      const display = await outcome(navigator.mediaDevices.getDisplayMedia({ audio: true, video: true }));
      const desktop = await outcome(navigator.mediaDevices.getUserMedia({
        audio: false,
        video: { mandatory: { chromeMediaSource: 'desktop' } },
      }));
      return { display, desktop };
    })()`,
  );
  expect(inTheRoom).toEqual({ display: 'NotAllowedError', desktop: 'NotAllowedError' });

  // In a telehealth visit the display-media handler answers a subframe's request with nothing
  // (maySystemAudio), and the page's own with sound and no screen: the video it must take is its
  // own frame's.
  await chooseTelehealth(page);
  const answers = await inThePage<{ fromFrame: string; kinds: string[] }>(
    electron,
    `(async () => {
      const frame = document.createElement('iframe');
      frame.srcdoc = '<p>frame</p>';
      document.body.append(frame);
      await new Promise((resolve) => frame.addEventListener('load', resolve));
      const fromFrame = await frame.contentWindow.navigator.mediaDevices
        .getDisplayMedia({ audio: true, video: true })
        .then(() => 'granted', (error) => error.name);
      frame.remove();
      const own = await navigator.mediaDevices.getDisplayMedia({ audio: true, video: true });
      const kinds = own.getTracks().map((track) => track.kind + ':' + track.label);
      own.getTracks().forEach((track) => track.stop());
      return { fromFrame, kinds };
    })()`,
  );
  expect(answers.fromFrame).not.toBe('granted');
  expect(answers.kinds).toContain('audio:System audio');
  // The video Chromium insists on is the page's own tab, never a screen or another window.
  expect(
    answers.kinds.filter((kind) => kind.startsWith('video:')).every((kind) => !/screen/i.test(kind)),
  ).toBe(true);
});
