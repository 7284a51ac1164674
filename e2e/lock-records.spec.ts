import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { bearerPolicy, signInAtIdp, standardPolicy, withPolicyApp } from './support/policy-app';
import {
  chooseFromMenu,
  openSettings,
  recordVisit,
  signedInWithPin,
  unlockWithPin,
  untilRecorded,
} from './support/workspace';

/**
 * Issue 39: no file a user can edit undoes the lock. Each test does to the app's files, with the
 * app killed, exactly what the issue describes, and starts it again: the window is locked (or
 * refuses), never open. Browser mode against the sandbox as its own process, on a policy for a
 * real service's partner (the built-in demo has no patient to protect).
 */
test.skip(
  ({ target }) => target !== 'browser',
  'the app is killed and its files edited between two launches',
);
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

/** Sign in pressed as `providerId`: refused in one sentence (the PIN store changed outside the app), still signed out. */
async function expectSignInRefusedAsChanged(page: Page, providerId: string): Promise<void> {
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({
      hasText: `${providerId} cannot sign in here until your IT admin enters the partner token again in Settings: the PINs on this computer were changed outside the app.`,
    }),
  ).toBeVisible();
  await expect(page.getByTestId('sign-in-state')).toContainText('Not signed in');
}

test('item 3: privacy.json deleted while the app is stopped, a standard partner’s kept sign-in still starts locked', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  await withPolicyApp(browser, standardPolicy, async (app) => {
    const { page } = app;
    await signInAtIdp(page, 'Sign in', 'dr-kept');
    await expect(page.getByTestId('sign-in-state')).toContainText('Signed in as dr-kept', {
      timeout: 20_000,
    });
    await expect(page.getByRole('heading', { name: 'Next visit' })).toBeVisible();

    // Kill the app, delete privacy.json, start it: before, the refresh token signed in with no lock.
    await app.killAndStart(() => rm(join(app.dataDir, 'privacy.json'), { force: true }));
    const lock = page.getByTestId('lock-screen');
    await expect(lock).toBeVisible({ timeout: 20_000 });
    await expect(lock).toContainText('Only dr-kept can open it again.');
    await expect(page.getByRole('heading', { name: 'Next visit' })).toHaveCount(0);

    // dr-kept, at the IdP with the password: open again.
    await signInAtIdp(page, 'Sign in as dr-kept to unlock', 'dr-kept');
    await expect(lock).toHaveCount(0);
    await expect(page.getByTestId('sign-in-state')).toContainText('Signed in as dr-kept');
  });
});

/** What the test does to the PIN's entry in the secrets file: the two edits. */
const PIN_ENTRY_EDITS = {
  deleted: (secrets: Record<string, string>) => void delete secrets['unlock-pins'],
  'made unreadable': (secrets: Record<string, string>) => void (secrets['unlock-pins'] = 'not a PIN store'),
};

for (const [edit, change] of Object.entries(PIN_ENTRY_EDITS)) {
  test(`item 2: the PIN’s entry ${edit} in the secrets file while the app is stopped, its clinician is signed out and refused, never offered Continue`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    await withPolicyApp(browser, bearerPolicy('dr-kept', { demoAllowed: false }), async (app) => {
      const { page } = app;
      await signedInWithPin(page, 'dr-kept');
      await recordVisit(page, 'kept1', 3);

      // Kill the app; delete the PIN's entry from the secrets file, or make it unreadable (browser
      // mode's owner-only JSON, as the desktop's file of keychain-encrypted values: a plain edit
      // either way); start it.
      await app.killAndStart(async () => {
        const file = join(app.dataDir, 'browser-secrets.json');
        const kept = JSON.parse(await readFile(file, 'utf8')) as { secrets: Record<string, string> };
        expect(Object.keys(kept.secrets)).toContain('unlock-pins');
        change(kept.secrets);
        await writeFile(file, JSON.stringify(kept));
      });
      // Before: the lock offered Continue (deleted) or came back with 0 tries and "too many wrong
      // PINs" (unreadable). Now the window starts signed out, lists nothing, and asks for no new PIN.
      await expect(page.getByTestId('sign-in-state')).toContainText('Not signed in', { timeout: 20_000 });
      await expect(page.getByTestId('lock-screen').getByRole('button', { name: 'Continue' })).toHaveCount(0);
      await expect(page.getByRole('heading', { name: 'Choose a PIN for this computer' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Open kept1' })).toHaveCount(0);
      // Sign in as dr-kept is refused in one sentence that says what to do.
      await expectSignInRefusedAsChanged(page, 'dr-kept');
      await expect(page.getByRole('heading', { name: 'Choose a PIN for this computer' })).toHaveCount(0);
    });
  });
}

test('item 4: from the lock, Not you?, Sign out, the built-in demo with the same provider ID, Sign in: none of the real clinician’s visits, and their audio kept', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // IT's defaults, nothing locked: anyone at the keyboard may point Settings at the demo.
  await withPolicyApp(browser, bearerPolicy('dr-kept'), async (app) => {
    const { page } = app;
    await signedInWithPin(page, 'dr-kept');
    // A visit the app is killed in: its audio waits in the spool, unsent.
    await page.getByLabel('Encounter ID').fill('kept4');
    await page.getByRole('button', { name: 'Start recording' }).click();
    await untilRecorded(page, 3, 30_000);
    await app.killAndStart(async () => undefined);
    const spooled = await readdir(join(app.dataDir, 'spool'));
    expect(spooled).toHaveLength(1);

    // From the lock: "Not you?" Sign out; Settings → the demo, the provider ID as it was; Sign in.
    const lock = page.getByTestId('lock-screen');
    await expect(lock).toContainText('dr-kept', { timeout: 20_000 });
    await lock.getByRole('button', { name: 'Sign out' }).click();
    await openSettings(page, 'Service (for IT)');
    await page.getByLabel('Built-in sandbox (demo, no account)').check();
    await expect(page.getByLabel('Provider ID')).toHaveValue('dr-kept');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('save-state')).toHaveText('Saved.');
    await page.getByRole('button', { name: 'Back to the visit' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByTestId('sign-in-state')).toContainText('Signed in as dr-kept', {
      timeout: 20_000,
    });
    await expect(page.getByRole('note').filter({ hasText: 'Demo mode' })).toBeVisible();
    // Before: kept4 was listed here, and its Discard deleted dr-kept's unsent audio.
    await page.waitForTimeout(2_000);
    await expect(page.getByText('kept4')).toHaveCount(0);
    expect(await readdir(join(app.dataDir, 'spool'))).toEqual(spooled);

    // The real service again: dr-kept, with their PIN, finds it as they left it.
    await openSettings(page, 'Service (for IT)');
    await page.getByLabel('A documentation service at this address').check();
    await page.getByLabel('Service URL').fill(app.serviceUrl);
    // The policy's token is entered for the service on the screen, as IT does after the demo.
    await page.getByLabel('Partner token').fill('sandbox-bearer-partner-token');
    await page.getByRole('button', { name: 'Save' }).click();
    // Signed in as dr-kept there, who has a PIN on this computer: the window asks for it.
    await expect(lock).toContainText('dr-kept', { timeout: 20_000 });
    await unlockWithPin(page, '2468');
    await page.getByRole('button', { name: 'Back to the visit' }).click();
    await expect(page.getByTestId('history').getByRole('row', { name: /kept4/ })).toContainText(
      'Interrupted',
      {
        timeout: 20_000,
      },
    );
  });
});

test('item 2: an older copy of the secrets file put back while the app is stopped: its PINs are blocked, the wrong tries never given back', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  await withPolicyApp(browser, bearerPolicy('dr-kept', { demoAllowed: false }), async (app) => {
    const { page } = app;
    await signedInWithPin(page, 'dr-kept');
    // A copy of the secrets file, as a backup or a second user of the computer would keep it.
    const file = join(app.dataDir, 'browser-secrets.json');
    let copy = '';
    await app.killAndStart(async () => {
      copy = await readFile(file, 'utf8');
    });
    // Three wrong PINs at the lock: the third starts a wait.
    for (const [pin, left] of [
      ['1111', 9],
      ['2222', 8],
      ['3333', 7],
    ] as const) {
      await unlockWithPin(page, pin);
      await expect(page.getByRole('alert')).toContainText(`${left} tries left`);
    }

    // Kill the app, put the copy back, start it: before, the lock offered all ten tries again.
    await app.killAndStart(() => writeFile(file, copy));
    await expect(page.getByTestId('sign-in-state')).toContainText('Not signed in', { timeout: 20_000 });
    // Killed while locked: before, the lock came back saying "0 tries left" to a PIN nothing could open.
    await expect(page.getByTestId('lock-screen')).toHaveCount(0);
    await expectSignInRefusedAsChanged(page, 'dr-kept');
  });
});

test('the lock’s record: an older copy of privacy.json put back after Sign out still owes the password at the IdP', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  await withPolicyApp(browser, standardPolicy, async (app) => {
    const { page } = app;
    const state = page.getByTestId('sign-in-state');
    await signInAtIdp(page, 'Sign in', 'dr-morning');
    await expect(state).toContainText('Signed in as dr-morning', { timeout: 20_000 });
    // A copy of privacy.json while nothing is owed, as a backup would keep it.
    const file = join(app.dataDir, 'privacy.json');
    const copy = await readFile(file, 'utf8');
    await chooseFromMenu(page, 'Sign out');
    await expect(state).toHaveText('Not signed in');

    // Kill the app, put the copy back, start it, Sign in: before, this browser's IdP session of
    // dr-morning signed straight in ("Sign-in complete") with no password asked.
    await app.killAndStart(() => writeFile(file, copy));
    await expect(state).toHaveText('Not signed in', { timeout: 20_000 });
    const popup = page.context().waitForEvent('page');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const idp = await popup;
    await expect(idp.getByLabel('Username')).toBeVisible();
    await expect(idp.getByRole('heading', { name: 'Sign-in complete' })).toHaveCount(0);
    await idp.getByLabel('Username').fill('dr-afternoon');
    await idp.getByRole('button', { name: 'Sign in' }).click();
    await expect(idp.getByRole('heading', { name: 'Sign-in complete' })).toBeVisible();
    await idp.close();
    await expect(state).toContainText('Signed in as dr-afternoon');
  });
});
