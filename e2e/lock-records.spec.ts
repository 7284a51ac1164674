import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from './support/fixtures';
import { launchOnPolicy, signInAtIdp, standardPolicy } from './support/policy-app';

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

test('item 3: privacy.json deleted while the app is stopped, a standard partner’s kept sign-in still starts locked', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const app = await launchOnPolicy(browser, standardPolicy);
  try {
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
  } finally {
    await app.close();
  }
});
