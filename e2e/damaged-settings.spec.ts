import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expectAccessible } from './support/axe';
import { expect, test, type Target } from './support/fixtures';
import { tryTheDemo, untilRecorded } from './support/workspace';

/**
 * A settings file cut short (a power cut mid-write, a full disk) before the app starts: the app
 * still starts, from default settings, says so in the window, keeps the damaged file aside, and
 * the next visit works. Each target damages its own file: electron-store's settings.json in the
 * desktop app (it parses the file in its constructor), browser-settings.json in browser mode.
 */
const SETTINGS_FILE: Record<Target, string> = { browser: 'browser-settings.json', electron: 'settings.json' };
const TRUNCATED: Record<Target, string> = {
  browser: '{\n  "firstRunComplete": true,\n  "partnerId": "clinic-7",\n  "service": {"kind": "u',
  electron: '{\n\t"settings": {\n\t\t"firstRunComplete": true,\n\t\t"partnerId": "clinic-7",\n\t\t"serv',
};

test.use({
  fakeMicrophone: 'e2e/fixtures/conversation.wav',
  seedFiles: {
    browser: { [SETTINGS_FILE.browser]: TRUNCATED.browser },
    electron: { [SETTINGS_FILE.electron]: TRUNCATED.electron },
  },
});

test('a truncated settings file: the app starts from defaults, says so, keeps the file, and the next visit makes a note', async ({
  scribe,
}) => {
  test.setTimeout(120_000);
  const { page, target, dataDir } = scribe;

  // It started (the first-run screen, since the settings are the defaults) and says what happened.
  await expect(page.getByTestId('link-state')).toHaveAttribute('data-link', 'connected');
  await expect(page.getByRole('heading', { name: 'Welcome to Ambient Scribe' })).toBeVisible();
  const notice = page.getByTestId('startup-notice');
  await expect(notice).toContainText(
    'Your settings file was damaged and was set aside; the app started with default settings.',
  );
  await expect(notice).toContainText('Choose your documentation service and enter its settings again');

  // The damaged file is kept, byte for byte, under the name the notice gives; nothing of it is shown.
  const kept = (await readdir(dataDir)).filter((name) => name.includes('.damaged-'));
  expect(kept).toHaveLength(1);
  expect(kept[0]).toMatch(new RegExp(`^${SETTINGS_FILE[target].replace('.json', '')}\\.damaged-.+\\.json$`));
  expect(await readFile(join(dataDir, kept[0]!), 'utf8')).toBe(TRUNCATED[target]);
  await expect(notice).toContainText(`kept as ${kept[0]}`);
  await expect(notice).not.toContainText('clinic-7');
  // The log says where the file went, and nothing of what it held.
  const logText = await readFile(join(dataDir, 'logs', 'main.log'), 'utf8');
  expect(logText).toMatch(new RegExp(`a damaged file was set aside; starting from defaults .*${kept[0]}`));
  expect(logText).not.toContain('clinic-7');
  await page.screenshot({ path: `e2e/artifacts/damaged-settings-${target}.png`, fullPage: true });
  await expectAccessible(page, 'setup with the damaged-settings notice');

  // The next visit works: the built-in demo service, a short recording, End, the note.
  await tryTheDemo(page);
  await page.getByRole('button', { name: 'Start recording' }).click();
  await untilRecorded(page, 16, 40_000);
  await page.getByRole('button', { name: 'End visit' }).click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 60_000 });

  // The notice goes when dismissed, and the settings saved since are a good file again.
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
  const saved = await readFile(join(dataDir, SETTINGS_FILE[target]), 'utf8');
  expect(() => JSON.parse(saved) as unknown).not.toThrow();
});
