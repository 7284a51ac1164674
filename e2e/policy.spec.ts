import type { Browser, Page } from '@playwright/test';
import { readdir, readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess, type SandboxProcess } from '../sandbox/test-support/sandbox-process';
import { startHostProcess, type HostProcess } from './support/browser-host-process';
import { expectAccessibleInBothThemes } from './support/axe';
import { BEARER_PARTNER } from './support/external-service';
import { expect, test } from './support/fixtures';
import { choosePin, openSettings } from './support/workspace';

/**
 * Issue 18, managed configuration: IT installs a policy file with the app, and the clinician never
 * sees the service setup; a policy that breaks a rule stops the app at a screen for IT. Browser
 * mode takes the file with `--policy` (Electron reads the same argument, policy-file.test.ts).
 */
test.skip(({ target }) => target !== 'browser', 'the policy is handed to browser mode by argument');

interface Launched {
  dir: string;
  policyFile: string;
  host: HostProcess;
  page: Page;
}

/** Browser mode on a fresh data directory with this policy file, in a tab of the worker's Chromium. */
async function launchWithPolicy(browser: Browser, policy: unknown, frames: string[]): Promise<Launched> {
  const dir = await mkdtemp(join(tmpdir(), 'scribe-policy-e2e-'));
  const policyFile = join(dir, 'policy.json');
  await writeFile(policyFile, JSON.stringify(policy, null, 2));
  const dataDir = join(dir, 'data');
  const host = await startHostProcess(dataDir, ['--policy', policyFile]);
  const page = await (await browser.newContext()).newPage();
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => frames.push(String(payload)));
    socket.on('framereceived', ({ payload }) => frames.push(String(payload)));
  });
  await page.goto(host.launchUrl);
  return { dir, policyFile, host, page };
}

/** Every file under `dir`, with its text (binary files read as text are fine for a search). */
async function filesUnder(dir: string): Promise<{ path: string; text: string }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const path = join(entry.parentPath, entry.name);
        return { path, text: await readFile(path, 'latin1') };
      }),
  );
}

let sandbox: SandboxProcess | undefined;
let sandboxDir: string | undefined;
test.afterEach(async () => {
  await sandbox?.stop();
  if (sandboxDir) await rm(sandboxDir, { recursive: true, force: true });
  sandbox = undefined;
  sandboxDir = undefined;
});

test('a policy for a bearer partner: no setup, signed in by itself, locked settings read-only, its partner token nowhere but the secret box', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  sandboxDir = await mkdtemp(join(tmpdir(), 'scribe-policy-sandbox-'));
  sandbox = await startSandboxProcess({ dataDir: sandboxDir, timeScale: 0.25, asr: 'energy' });
  const frames: string[] = [];
  const launched = await launchWithPolicy(
    browser,
    {
      serviceUrl: sandbox.url,
      partnerId: BEARER_PARTNER.id,
      authModel: 'bearer',
      partnerToken: BEARER_PARTNER.token,
      providerId: 'dr-{username}',
      demoAllowed: false,
      idleLockMinutes: 5,
      locked: ['serviceUrl', 'partnerId', 'authModel', 'providerId'],
    },
    frames,
  );
  const { page, host, dir } = launched;
  try {
    // Straight to the visit: no first run, no service form, signed in as the OS user.
    const providerId = `dr-${userInfo().username}`;
    await expect(page.getByTestId('sign-in-state')).toContainText(`Signed in as ${providerId}`, {
      timeout: 20_000,
    });
    await choosePin(page);
    await expect(page.getByRole('heading', { name: 'Welcome to Ambient Scribe' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Start recording' })).toBeEnabled();
    // Not the demo: no badge.
    await expect(page.getByRole('note')).toHaveCount(0);

    // What IT locked is shown, read-only, and says who set it; the demo is not offered.
    await openSettings(page, 'Service (for IT)');
    for (const label of ['Service URL', 'Partner ID', 'Sign-in model', 'Provider ID']) {
      await expect(page.getByLabel(label, { exact: true })).toBeDisabled();
    }
    await expect(page.getByLabel('Service URL')).toHaveValue(sandbox.url);
    await expect(page.getByText(/^Set by your organisation\./).first()).toBeVisible();
    await expect(page.getByLabel('Built-in sandbox (demo, no account)')).toHaveCount(0);
    await expect(page.getByText('Stored — enter a new one to replace it.')).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/policy-locked-settings.png' });
    await expectAccessibleInBothThemes(page, 'service settings, locked by the policy');
    // Not locked: the clinician's own choice, with the policy's value as its start.
    await openSettings(page, 'Recording and display');
    await expect(page.getByLabel('Lock after (minutes without use)')).toHaveValue('5');
    await expect(page.getByLabel('Lock after (minutes without use)')).toBeEnabled();

    // The partner token: in no contract message, not in the page, in no file but the secret box.
    expect(frames.length).toBeGreaterThan(10);
    expect(frames.filter((frame) => frame.includes(BEARER_PARTNER.token))).toEqual([]);
    expect(await page.content()).not.toContain(BEARER_PARTNER.token);
    const holding = (await filesUnder(join(dir, 'data')))
      .filter((file) => file.text.includes(BEARER_PARTNER.token))
      .map((file) => file.path.slice(dir.length));
    expect(holding).toEqual(['/data/browser-secrets.json']);
    const log = await readFile(join(dir, 'data', 'logs', 'main.log'), 'utf8');
    expect(log).toContain('policy: applied');
    expect(log).not.toContain(BEARER_PARTNER.token);
  } finally {
    await host.stop();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a policy that breaks a rule: the app stops at a screen naming the file, each key and its rule, and applies none of it', async ({
  browser,
}) => {
  const frames: string[] = [];
  const { page, host, dir, policyFile } = await launchWithPolicy(
    browser,
    {
      serviceUrl: 'http://scribe.example.org',
      authModel: 'oauth',
      partnerToken: BEARER_PARTNER.token,
      locked: ['serviceUrl', 'colour'],
    },
    frames,
  );
  try {
    const screen = page.getByTestId('policy-problem');
    await expect(screen).toBeVisible();
    await expect(page.getByTestId('policy-file')).toHaveText(policyFile);
    const problems = page.getByTestId('policy-problems').getByRole('listitem');
    await expect(problems).toHaveText([
      /^serviceUrl must be a full https:\/\//,
      'authModel must be one of standard, bearer, single_auth_token',
      /^locked\.1 must name keys of this file \(.+\); "colour" is not one$/,
    ]);
    await page.screenshot({ path: 'e2e/artifacts/policy-problem.png' });
    await expectAccessibleInBothThemes(page, 'the policy problem');
    await expect(page.getByRole('note')).toHaveCount(0);
    // Stopped: no first run, no visit, nothing to record with.
    await expect(page.getByRole('button', { name: 'Try the demo' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Start recording' })).toHaveCount(0);
    // Nothing of it applied: no partner token stored, none in a message or the log.
    const files = await filesUnder(join(dir, 'data'));
    expect(files.filter((file) => file.text.includes(BEARER_PARTNER.token)).map((f) => f.path)).toEqual([]);
    expect(frames.filter((frame) => frame.includes(BEARER_PARTNER.token))).toEqual([]);
    const log = await readFile(join(dir, 'data', 'logs', 'main.log'), 'utf8');
    expect(log).toContain(
      `The policy file ${policyFile} was not applied: serviceUrl must be a full https://`,
    );
  } finally {
    await host.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
