import { _electron, type ElectronApplication } from '@playwright/test';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { electronRuntime } from './support/electron-runtime';
import { expect, test } from './support/fixtures';
import { tryTheDemo, untilRecorded } from './support/workspace';

/**
 * The desktop shell itself (src/main/index.ts and the files beside it), on a machine with the
 * Electron runtime: the window keeps rendering in the background, a renderer that dies is loaded
 * again (and one that keeps dying closes the app with a dialog), and quitting stops the core first
 * so the visit being recorded is on disk for the next start; a visit link from a second launch
 * reaches the running window, and a link a launcher split in two (the quote-injection shape,
 * `-- "<link>" --policy=…`) opens nothing and applies no policy, on a second launch or a cold one.
 * Browser mode has no such shell.
 */
test.skip(
  ({ target }) => target !== 'electron',
  'the Electron shell (window, menu, quit) exists only in Electron',
);
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

const logOf = (dataDir: string) => readFile(join(dataDir, 'logs', 'main.log'), 'utf8').catch(() => '');

function crashRenderer(electron: ElectronApplication): Promise<void> {
  return electron.evaluate(({ BrowserWindow }) =>
    BrowserWindow.getAllWindows()[0]?.webContents.forcefullyCrashRenderer(),
  );
}

/** The link state the window shows now, read by the main process (the page object dies with its renderer). */
function linkState(electron: ElectronApplication): Promise<unknown> {
  return electron.evaluate(({ BrowserWindow }) =>
    BrowserWindow.getAllWindows()[0]?.webContents.executeJavaScript(
      "document.querySelector('[data-testid=link-state]')?.getAttribute('data-link') ?? null",
    ),
  );
}

test('the window is not throttled in the background, and the menu is the app’s own', async ({ scribe }) => {
  const electron = scribe.electron!;
  const facts = await electron.evaluate(({ BrowserWindow, Menu }) => ({
    throttled: BrowserWindow.getAllWindows()[0]?.webContents.getBackgroundThrottling(),
    menus: Menu.getApplicationMenu()?.items.map((item) => item.label),
    platform: process.platform,
  }));
  expect(facts.throttled).toBe(false);
  // A development build (not packaged) keeps View for developers; app-menu.test.ts covers packaged builds.
  expect(facts.menus).toEqual(
    facts.platform === 'darwin' ? ['Ambient Scribe', 'Edit', 'View', 'Window'] : ['File', 'Edit', 'View'],
  );
});

test('a renderer that dies is loaded again, and the app says why in its log', async ({ scribe }) => {
  const electron = scribe.electron!;
  await expect(scribe.page.getByTestId('link-state')).toHaveAttribute('data-link', 'connected');
  await crashRenderer(electron);
  await expect
    .poll(() => logOf(scribe.dataDir), { timeout: 15_000 })
    .toContain('window: reloaded after the renderer was gone');
  expect(await logOf(scribe.dataDir)).toMatch(
    /window: the renderer process is gone \{"reason":"(killed|crashed)"/,
  );
  await expect.poll(() => linkState(electron), { timeout: 15_000 }).toBe('connected');
});

test('a renderer that keeps dying: after 3 reloads within a minute, a dialog names the log, and the app quits', async ({
  scribe,
}) => {
  const electron = scribe.electron!;
  const child = electron.process();
  let stdout = '';
  child.stdout?.on('data', (data: Buffer) => (stdout += data.toString()));
  // The dialog is modal; here it writes what it would show instead.
  await electron.evaluate(({ dialog }) => {
    dialog.showErrorBox = (title, content) => {
      process.stdout.write(`DIALOG ${JSON.stringify({ title, content })}\n`);
    };
  });
  const exited = once(child, 'exit');
  for (let reloads = 1; reloads <= 3; reloads += 1) {
    await crashRenderer(electron);
    await expect
      .poll(async () => (await logOf(scribe.dataDir)).split('window: reloaded after').length - 1, {
        timeout: 15_000,
      })
      .toBe(reloads);
    await expect.poll(() => linkState(electron), { timeout: 15_000 }).toBe('connected');
  }
  await crashRenderer(electron);
  await exited;

  const shown = stdout.split('\n').find((line) => line.startsWith('DIALOG '));
  const dialog = JSON.parse(shown!.slice('DIALOG '.length)) as { title: string; content: string };
  expect(dialog.title).toBe('Ambient Scribe keeps stopping');
  expect(dialog.content).toContain('stopped working 4 times within 60 seconds');
  expect(dialog.content).toContain(join(scribe.dataDir, 'logs', 'main.log'));
  const log = await logOf(scribe.dataDir);
  expect(log).toContain('window: the renderer keeps crashing; closing the app');
  expect(log).toContain('app: core stopped before quitting');
});

test('quitting mid-recording stops the core first: the next start finds the visit, and Finish makes its note', async ({
  scribe,
}) => {
  test.setTimeout(150_000);
  const electron = scribe.electron!;
  let { page } = scribe;
  await tryTheDemo(page);
  await page.getByLabel('Encounter ID').fill('quitvisit1');
  await page.getByRole('button', { name: 'Start recording' }).click();
  await untilRecorded(page, 12, 30_000);

  // As ⌘Q or File ▸ Quit do: app.quit(), which emits before-quit and not window-all-closed.
  const exited = once(electron.process(), 'exit');
  await electron.evaluate(({ app }) => app.quit());
  await exited;
  const log = await logOf(scribe.dataDir);
  expect(log).toContain('app: stopped');
  expect(log).toContain('app: core stopped before quitting');
  expect(log).not.toContain('did not stop in time');

  page = await scribe.restart();
  const row = page.getByTestId('history').getByRole('row', { name: /quitvisit1/ });
  await expect(row).toContainText('Interrupted');
  await row.getByRole('button', { name: 'Finish quitvisit1' }).click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });
});

test('a visit link from a second launch (Windows, Linux) reaches the running window: its visit opens, filled in', async ({
  scribe,
}) => {
  const { page } = scribe;
  await tryTheDemo(page);
  const runtime = electronRuntime();
  if (!runtime.available) throw new Error(runtime.reason);
  // As the OS runs the command the installer registered ("…" -- "%1"): the second launch finds the
  // single-instance lock taken, hands its link to the running app (the lock's additionalData) and exits.
  const second = spawn(
    runtime.executable,
    ['.', '--', 'ambient-scribe://visit?encounter_id=ehr4711&sex=FEMALE&date_of_birth=1961-04-09'],
    { env: { ...process.env, SCRIBE_DATA_DIR: scribe.dataDir }, stdio: 'ignore' },
  );
  const [code] = (await once(second, 'exit')) as [number | null];
  expect(code).toBe(0);
  await expect(page.getByLabel('Encounter ID')).toHaveValue('ehr4711');
  await expect(page.getByLabel('Sex')).toHaveValue('FEMALE');
  await expect(page.getByTestId('linked-visit')).toHaveText('Opened from the EHR.');
  expect(await logOf(scribe.dataDir)).toContain('visit link: opened');
});

/** A second launch of the app on the data directory, as the OS would run the registered command. */
async function secondLaunch(dataDir: string, args: string[]): Promise<number | null> {
  const runtime = electronRuntime();
  if (!runtime.available) throw new Error(runtime.reason);
  const second = spawn(runtime.executable, ['.', ...args], {
    env: { ...process.env, SCRIBE_DATA_DIR: dataDir },
    stdio: 'ignore',
  });
  const [code] = (await once(second, 'exit')) as [number | null];
  return code;
}

/** A policy that would show: the demo not offered. Applied, the first run has no "Try the demo". */
async function writeNoDemoPolicy(dir: string): Promise<string> {
  const file = join(dir, 'policy.json');
  await writeFile(file, JSON.stringify({ demoAllowed: false }));
  return file;
}

const SPLIT_LINK = 'ambient-scribe://visit?encounter_id=split1';

test('a link split at a quote on a second launch (-- "<link>" --policy=…) opens nothing; the link alone then does', async ({
  scribe,
}) => {
  const { page } = scribe;
  await tryTheDemo(page);
  const policy = await writeNoDemoPolicy(scribe.dataDir);
  expect(await secondLaunch(scribe.dataDir, ['--', SPLIT_LINK, `--policy=${policy}`])).toBe(0);
  await expect
    .poll(() => logOf(scribe.dataDir), { timeout: 15_000 })
    .toContain('launch: 2 arguments came after "--"');
  await expect(page.getByTestId('linked-visit')).toHaveCount(0);
  expect(await logOf(scribe.dataDir)).not.toContain('split1');

  expect(await secondLaunch(scribe.dataDir, ['--', SPLIT_LINK])).toBe(0);
  await expect(page.getByLabel('Encounter ID')).toHaveValue('split1');
  await expect(page.getByTestId('linked-visit')).toHaveText('Opened from the EHR.');
});

test('a cold start with a link split at a quote (-- "<link>" --policy=…) applies no policy and opens no link', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'scribe-split-'));
  const policy = await writeNoDemoPolicy(dir);
  const dataDir = join(dir, 'data');
  const app = await _electron.launch({
    args: ['.', '--', SPLIT_LINK, `--policy=${policy}`],
    env: { ...process.env, SCRIBE_DATA_DIR: dataDir },
  });
  try {
    const page = await app.firstWindow();
    // No policy: the first run offers the demo, which the policy would have taken away.
    await expect(page.getByRole('button', { name: 'Try the demo' })).toBeVisible();
    await expect(page.getByTestId('linked-visit')).toHaveCount(0);
    const log = await logOf(dataDir);
    expect(log).toContain('launch: 2 arguments came after "--"');
    expect(log).not.toContain('split1');
    expect(log).not.toContain(policy);
  } finally {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
});
