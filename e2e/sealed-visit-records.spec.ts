import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess, type SandboxProcess } from '../sandbox/test-support/sandbox-process';
import { expect, test } from './support/fixtures';
import { bearerPolicy, withPolicyApp } from './support/policy-app';
import {
  choosePin,
  openSettings,
  recordVisit,
  signedInWithPin,
  unlockWithPin,
  untilRecorded,
} from './support/workspace';

/**
 * Issue 39, item 6: where a visit's audio goes, and the patient's consent, are what the app sealed
 * at Start, not what `history.json` or a spool's `manifest.json` say (files a user can edit). The
 * app is killed, the files are edited exactly as the issue describes, and it is started again.
 * Browser mode against the sandbox as its own process, on a bearer partner's policy whose service
 * anyone at the keyboard may change.
 */
test.skip(
  ({ target }) => target !== 'browser',
  'the app is killed and its files edited between two launches',
);
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

type Json = Record<string, unknown>;
/** Rewrites a JSON file in place (one not written yet reads as `{}`). */
async function editJson(file: string, change: (value: Json) => Json): Promise<void> {
  const text = await readFile(file, 'utf8').catch(() => '{}');
  await writeFile(file, JSON.stringify(change(JSON.parse(text) as Json)));
}
const entriesOf = (history: Json) => history.entries as Json[];

let otherDir: string | undefined;
let other: SandboxProcess | undefined;
test.afterEach(async () => {
  await other?.stop();
  if (otherDir) await rm(otherDir, { recursive: true, force: true });
  [other, otherDir] = [undefined, undefined];
});

/** What the test does to `deliverTo` in the spool's manifest and History: the edit, and a worse one. */
const DELIVER_TO_EDITS = {
  deleted: () => undefined,
  'rewritten to that server': (elsewhere: Json) => elsewhere,
};

for (const [edit, deliverToNow] of Object.entries(DELIVER_TO_EDITS)) {
  test(`item 6: deliverTo ${edit} in the spool and History, Settings pointed at another server: nothing of the visit goes there`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    otherDir = await mkdtemp(join(tmpdir(), 'scribe-other-service-'));
    // Another working service (it takes the same partner token): a host an attacker controls.
    other = await startSandboxProcess({ dataDir: otherDir, timeScale: 0.25, asr: 'energy' });
    await withPolicyApp(browser, bearerPolicy('dr-kept'), async (app) => {
      const { page } = app;
      await signedInWithPin(page, 'dr-kept');
      await page.getByLabel('Encounter ID').fill('sealed6');
      await page.getByRole('button', { name: 'Start recording' }).click();
      await untilRecorded(page, 3, 30_000);

      let sessionId = '';
      await app.killAndStart(async () => {
        const elsewhere = {
          service: new URL(other!.url).origin,
          partnerId: 'demo-bearer',
          providerId: 'dr-kept',
          model: 'bearer',
        };
        /** The record with `deliverTo` deleted, or rewritten (JSON.stringify drops an undefined). */
        const edited = (record: Json) => ({ ...record, deliverTo: deliverToNow(elsewhere) });
        for (const spool of await readdir(join(app.dataDir, 'spool')))
          await editJson(join(app.dataDir, 'spool', spool, 'manifest.json'), edited);
        await editJson(join(app.dataDir, 'history.json'), (history) => {
          sessionId = entriesOf(history)[0]!.sessionId as string;
          return { ...history, entries: entriesOf(history).map(edited) };
        });
        await editJson(join(app.dataDir, 'browser-settings.json'), (settings) => ({
          ...settings,
          service: { kind: 'url', baseUrl: other!.url },
        }));
      });
      // Not signed in there (no token for that address). The other server's partner token, typed in
      // Settings as IT would; dr-kept there chooses a PIN of their own.
      await expect(page.getByTestId('sign-in-state')).toContainText('Not signed in', { timeout: 20_000 });
      await openSettings(page, 'Service (for IT)');
      await page.getByLabel('Partner token').fill('sandbox-bearer-partner-token');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('button', { name: 'Back to the visit' }).click();
      await choosePin(page, '1357');
      await expect(page.getByTestId('sign-in-state')).toContainText('Signed in as dr-kept');

      // Before: the visit was listed here (a missing deliverTo read as "wherever Settings point"), and
      // Finish decrypted its audio and streamed it to this server. Its seal says the first service:
      // here it is nobody's, so there is no Finish to press, and nothing of it is sent.
      await page.waitForTimeout(3_000);
      await expect(page.getByText('sealed6')).toHaveCount(0);
      const there = await other!.sessions();
      expect(there.filter((s) => s.id === sessionId || s.encounter_id === 'sealed6')).toEqual([]);
      expect(await readdir(join(app.dataDir, 'spool'))).toContain(sessionId);
    });
  });
}

test('item 6: a consent added to history.json by hand shows nowhere: not in the note, not in Copy all, not in History', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  await withPolicyApp(browser, bearerPolicy('dr-kept'), async (app) => {
    const { page } = app;
    // Every address the app will have (it moves at the restart): Copy all writes, the test reads.
    await page.context().grantPermissions(['microphone', 'clipboard-read', 'clipboard-write']);
    await signedInWithPin(page, 'dr-kept');
    await recordVisit(page, 'plain6', 4);
    await expect(page.getByTestId('note-consent')).toHaveCount(0);

    await app.killAndStart(() =>
      editJson(join(app.dataDir, 'history.json'), (history) => ({
        ...history,
        entries: entriesOf(history).map((e) => ({
          ...e,
          consent: { method: 'written', wording: 'Signed.', at: e.startedAt, providerId: 'dr-kept' },
        })),
      })),
    );
    await unlockWithPin(page, '2468');
    const row = page.getByTestId('history').getByRole('row', { name: /plain6/ });
    await expect(row).toBeVisible({ timeout: 20_000 });
    await row.getByRole('button', { name: 'Open plain6' }).click();
    await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 30_000 });
    // Before: "Consent to ambient recording: written, …, dr-kept." in the header and Copy all.
    await expect(page.getByTestId('note-consent')).toHaveCount(0);
    await expect(row.getByTestId('history-consent')).toHaveCount(0);
    // Copy all replaces what the clipboard held (this sandbox's note has no section with text, so
    // all it could carry is the consent line).
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await page.evaluate(() => navigator.clipboard.writeText('held before the copy'));
    await page.getByRole('button', { name: 'Copy all of the note' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Copied: all of the note.' })).toBeAttached();
    await expect.poll(clipboard).not.toBe('held before the copy');
    const all = await clipboard();
    expect(all).not.toContain('Consent to ambient recording');
  });
});
