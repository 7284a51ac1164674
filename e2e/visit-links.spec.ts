import type { Page } from '@playwright/test';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess, type SandboxProcess } from '../sandbox/test-support/sandbox-process';
import { expectAccessibleInBothThemes } from './support/axe';
import {
  launchAgain,
  openUrlInRunningApp,
  startHostProcess,
  type HostProcess,
} from './support/browser-host-process';
import { BEARER_PARTNER } from './support/external-service';
import { expect, test } from './support/fixtures';
import { choosePin, tryTheDemo, untilRecorded } from './support/workspace';

/**
 * Issue 18, visit links: the EHR opens `ambient-scribe://visit?…` and the app shows that visit,
 * ready, with its details filled in; the clinician presses Start. Browser mode takes a link with
 * `--open-url` at launch, and a second launch with `--open-url` on the same data directory hands
 * it to the running one (as Electron's second-instance does; electron-shell.spec.ts).
 */
test.skip(({ target }) => target !== 'browser', 'browser mode takes links with --open-url');
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

const FIRST =
  'ambient-scribe://visit?encounter_id=ehr4711&date_of_birth=1961-04-09&sex=FEMALE&template=soap&provider_id=dr-ehr';
const SECOND = 'ambient-scribe://visit?encounter_id=ehr4712&sex=MALE';
/** An encounter ID with no letter or digit (a template's placeholder left empty but for its punctuation). */
const BAD = 'ambient-scribe://visit?encounter_id=%23%20-%20%2F&sex=F&date_of_birth=1961-04-09';

let dir: string | undefined;
let sandbox: SandboxProcess | undefined;
let host: HostProcess | undefined;
test.afterEach(async () => {
  await host?.stop();
  await sandbox?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
  [dir, sandbox, host] = [undefined, undefined, undefined];
});

async function openPage(page: Page, launchUrl: string): Promise<void> {
  await page.context().grantPermissions(['microphone']);
  await page.goto(launchUrl);
}

test('a link opens the visit filled in, Start records it, a link meanwhile waits as the next visit, a bad one fills nothing', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  dir = await mkdtemp(join(tmpdir(), 'scribe-links-e2e-'));
  sandbox = await startSandboxProcess({ dataDir: join(dir, 'sandbox'), timeScale: 0.25, asr: 'energy' });
  // A bearer partner installed by IT for dr-ehr; the EHR's link names the same provider (a link
  // naming another is refused: e2e/link-identity.spec.ts).
  const policyFile = join(dir, 'policy.json');
  await writeFile(
    policyFile,
    JSON.stringify({
      serviceUrl: sandbox.url,
      partnerId: BEARER_PARTNER.id,
      authModel: 'bearer',
      partnerToken: BEARER_PARTNER.token,
      providerId: 'dr-ehr',
      demoAllowed: false,
      locked: ['serviceUrl', 'partnerId', 'authModel'],
    }),
  );
  const dataDir = join(dir, 'data');
  host = await startHostProcess(dataDir, ['--policy', policyFile, '--open-url', FIRST]);
  const page = await (await browser.newContext()).newPage();
  await openPage(page, host.launchUrl);

  // The link's visit, ready: every field it carried is filled in and shown, its provider signed in.
  await expect(page.getByTestId('sign-in-state')).toContainText('Signed in as dr-ehr', { timeout: 20_000 });
  // dr-ehr's first sign-in here: their PIN first, then the link's visit.
  await choosePin(page);
  await expect(page.getByTestId('linked-visit')).toHaveText('Opened from the EHR.');
  await expect(page.getByLabel('Encounter ID')).toHaveValue('ehr4711');
  await expect(page.getByLabel('Date of birth')).toHaveValue('1961-04-09');
  await expect(page.getByText(/^Understood as (9 April 1961|April 9, 1961)$/)).toBeVisible();
  await expect(page.getByLabel('Sex')).toHaveValue('FEMALE');
  await expect(page.getByTestId('note-summary')).toContainText('SOAP');
  await page.screenshot({ path: 'e2e/artifacts/visit-link-ready.png' });
  await expectAccessibleInBothThemes(page, 'a visit opened from a link');

  // One click: Start.
  await page.getByRole('button', { name: 'Start recording' }).click();
  const state = page.getByTestId('recorder-state');
  await expect(state).toHaveText(/^Recording/);
  await expect(page.getByTestId('encounter-id')).toHaveText('Encounter ehr4711');
  await untilRecorded(page, 3, 15_000);

  // The EHR opens the next patient while this one records: the recording is not touched.
  const handed = await openUrlInRunningApp(dataDir, SECOND);
  expect(handed).toMatchObject({ code: 0, stdout: expect.stringContaining('handed to the running app') });
  const waiting = page.getByTestId('visit-link-waiting');
  await expect(waiting).toContainText('The EHR opened visit ehr4712');
  await expect(waiting).toContainText('this recording goes on');
  await expect(page.getByTestId('encounter-id')).toHaveText('Encounter ehr4711');
  await expect(state).toHaveAttribute('data-state', /^(streaming|auto-paused)$/);
  const before = await elapsedSeconds(page);
  await expect.poll(() => elapsedSeconds(page)).toBeGreaterThan(before);

  // A bad link: what was wrong, said to the program that sent it and in the window; nothing filled.
  const refused = await openUrlInRunningApp(dataDir, BAD);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('encounter_id must have at least one letter or digit (A–Z, a–z, 0–9)');
  expect(refused.stderr).toContain('sex must be one of MALE, FEMALE, OTHER, UNKNOWN');
  const alert = page.getByTestId('visit-link-refused');
  await expect(alert.getByRole('listitem')).toHaveText([
    'encounter_id must have at least one letter or digit (A–Z, a–z, 0–9)',
    'sex must be one of MALE, FEMALE, OTHER, UNKNOWN',
  ]);
  await page.screenshot({ path: 'e2e/artifacts/visit-link-while-recording.png' });
  await expectAccessibleInBothThemes(page, 'recording, with a link waiting and a bad one refused');
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await expect(alert).toHaveCount(0);
  await expect(page.getByTestId('encounter-id')).toHaveText('Encounter ehr4711');

  // The recorded visit ends as its own: its note carries its encounter.
  await page.getByRole('button', { name: /End visit/ }).click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 60_000 });
  await expect(page.getByTestId('results-heading')).toHaveText('Encounter ehr4711');
  await expect(page.getByTestId('note-patient')).toHaveText(/^Female · \d+ years · born /);
  // The waiting link is the next visit: New visit opens it, filled in.
  await expect(waiting).toContainText('New visit opens it');
  await page.getByRole('button', { name: 'New visit' }).click();
  await expect(page.getByLabel('Encounter ID')).toHaveValue('ehr4712');
  await expect(page.getByLabel('Sex')).toHaveValue('MALE');
  await expect(page.getByLabel('Date of birth')).toHaveValue('');
  await expect(waiting).toHaveCount(0);

  // One app per data directory: a plain second launch is turned away, as Electron's lock does.
  const again = await launchAgain(dataDir, []);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('Ambient Scribe is already running in browser mode with the data directory');

  // The links' patient details are in no log line.
  const log = await readFile(join(dataDir, 'logs', 'main.log'), 'utf8');
  // Which fields came and which rules broke, for IT.
  expect(log).toMatch(
    /visit link: opened .*"linkFields":\["encounterId","dateOfBirth","sex","template","providerId"\]/,
  );
  expect(log).toMatch(/visit link: refused .*"encounter_id must have at least one letter or digit/);
  for (const detail of ['ehr4711', 'ehr4712', '1961-04-09', '# - /', '%23%20-%20%2F'])
    expect(log, `the log holds ${detail}`).not.toContain(detail);
});

test('a bad link at launch: the first screen says what was wrong, and the visit is not filled from it', async ({
  browser,
}) => {
  dir = await mkdtemp(join(tmpdir(), 'scribe-links-e2e-'));
  host = await startHostProcess(join(dir, 'data'), ['--open-url', BAD]);
  const page = await (await browser.newContext()).newPage();
  await openPage(page, host.launchUrl);
  const alert = page.getByTestId('visit-link-refused');
  await expect(alert).toContainText('The visit link from the EHR could not be used; nothing was filled in');
  await expect(alert.getByRole('listitem')).toHaveCount(2);
  await tryTheDemo(page);
  await expect(page.getByLabel('Encounter ID')).toHaveValue(/^demo\d{14}$/);
  await expect(page.getByLabel('Sex')).toHaveValue('');
  await expect(page.getByTestId('linked-visit')).toHaveCount(0);
  await alert.getByRole('button', { name: 'Dismiss' }).click();
  await expect(alert).toHaveCount(0);
  // Dismissed is dismissed: a reload does not bring it back.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Next visit' })).toBeVisible();
  await expect(page.getByTestId('visit-link-refused')).toHaveCount(0);
});

async function elapsedSeconds(page: Page): Promise<number> {
  const [minutes, seconds] = ((await page.getByTestId('elapsed').textContent()) ?? '0:0').split(':');
  return Number(minutes) * 60 + Number(seconds);
}
