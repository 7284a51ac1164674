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

test('the shell gives the computer’s sound to the app’s own page only, never a screen', async ({
  scribe,
}) => {
  test.skip(!support.loopback, `this system gives no sound to record: ${support.reason}`);
  const electron = scribe.electron!;
  // The display-media handler answers a subframe's request with nothing (maySystemAudio), and the
  // page's own request with sound and no screen: the video it must take is its own frame's.
  const answers: { fromFrame: string; kinds: string[] } = await electron.evaluate(
    async ({ BrowserWindow }) => {
      const contents = BrowserWindow.getAllWindows()[0]!.webContents;
      return contents.executeJavaScript(
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
        true,
      );
    },
  );
  expect(answers.fromFrame).not.toBe('granted');
  expect(answers.kinds).toContain('audio:System audio');
  // The video Chromium insists on is the page's own tab, never a screen or another window.
  expect(
    answers.kinds.filter((kind) => kind.startsWith('video:')).every((kind) => !/screen/i.test(kind)),
  ).toBe(true);
});
