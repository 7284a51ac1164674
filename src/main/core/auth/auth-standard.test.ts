import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { refreshIdToken } from '../../../../sandbox/idp/headless-sign-in';
import { startSandbox, type Sandbox } from '../../../../sandbox/server';
import { createFileSecretBox } from '../secrets/file-secret-box';
import { SECRET_NAMES } from '../secrets/secret-box';
import type { AuthStatus } from './auth-status';
import { headlessBrowser, idleBrowser } from './testing/headless-browser';
import { DEMO, registeredProviders, standardManager, type TestManager } from './testing/sandbox-managers';
import { count, eventually, shiftedClock } from './testing/test-ports';

/**
 * A standard partner: OpenID Connect authorization code + PKCE in the system browser, against the
 * sandbox's real IdP, with the real loopback redirect (a headless browser plays the person).
 */
let sandbox: Sandbox;
const open: TestManager[] = [];
const make = (...args: Parameters<typeof standardManager>) => {
  const made = standardManager(...args);
  open.push(made);
  return made;
};
let n = 0;
const username = () => `dr-oidc-${process.pid}-${Date.now()}-${(n += 1)}`;

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: 0.05, asr: 'energy' });
});
afterEach(() => {
  open.splice(0).forEach(({ manager }) => manager.dispose());
});
afterAll(() => sandbox.close());

describe('standard partner sign-in', () => {
  it('signs in through the browser, registers the new provider, and keeps the refresh token', async () => {
    const user = username();
    const browser = headlessBrowser({ username: user, name: 'Dr. Olive Idc' });
    const { manager, secrets, log } = make(sandbox, browser.openExternal);
    const phases: AuthStatus['phase'][] = [];
    manager.onChange((status) => phases.push(status.phase));

    // Nothing stored yet: the app does not open a browser on its own.
    await expect(manager.current()).rejects.toMatchObject({ id: 'sign_in_needed' });
    expect(manager.status().phase).toBe('sign-in-needed');
    expect(browser.opened).toHaveLength(0);

    const status = await manager.signIn();
    await browser.lastWalk();

    expect(browser.opened).toHaveLength(1);
    const url = new URL(browser.opened[0]!);
    expect(url.origin + url.pathname).toBe(`${sandbox.idpIssuer}/auth`);
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('openid profile offline_access');
    expect(url.searchParams.get('prompt')).toBe('consent');
    expect(url.searchParams.get('state')).toBeTruthy();

    expect(status).toMatchObject({
      signedIn: true,
      phase: 'signed-in',
      model: 'standard',
      providerId: user,
      providerName: 'Dr. Olive Idc',
    });
    expect(phases).toContain('waiting-for-browser');
    expect(await secrets.get(SECRET_NAMES.oidcRefreshToken)).toBeTruthy();
    expect(count(log, 'auth: provider not registered yet; registering')).toBe(1);
    expect(await registeredProviders(sandbox)).toContainEqual({
      provider_id: user,
      partners: [DEMO.standard.partnerId],
    });
  });

  it('signs in after a restart with the stored refresh token, saving each rotated one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scribe-auth-'));
    const filePath = join(dir, 'secrets.json');
    const user = username();
    const first = headlessBrowser({ username: user });
    const before = make(sandbox, first.openExternal, { secrets: createFileSecretBox({ filePath }) });
    await before.manager.signIn();
    const firstRefresh = await before.secrets.get(SECRET_NAMES.oidcRefreshToken);
    before.manager.dispose();

    // "Restart": a new manager on the same secret file, and a browser nobody should need.
    const clock = shiftedClock();
    const browser = idleBrowser();
    const after = make(sandbox, browser.openExternal, { secrets: createFileSecretBox({ filePath }), clock });
    await expect(after.manager.current()).resolves.toMatchObject({ serviceToken: expect.any(String) });
    expect(browser.opened).toHaveLength(0);
    expect(after.manager.status()).toMatchObject({ signedIn: true, providerId: user });
    const secondRefresh = await after.secrets.get(SECRET_NAMES.oidcRefreshToken);
    expect(secondRefresh).toBeTruthy();
    expect(secondRefresh).not.toBe(firstRefresh);

    // Two hours later the ID token has expired: renewing the service token refreshes it silently.
    clock.shiftMs = 2 * 60 * 60 * 1000;
    await expect(after.manager.renew()).resolves.toMatchObject({ serviceToken: expect.any(String) });
    expect(browser.opened).toHaveLength(0);
    const thirdRefresh = await createFileSecretBox({ filePath }).get(SECRET_NAMES.oidcRefreshToken);
    expect(thirdRefresh).toBeTruthy();
    expect(thirdRefresh).not.toBe(secondRefresh);
    expect(count(after.log, 'auth: renewed the ID token with the refresh token')).toBe(2);

    // Rotation: the IdP refuses an old refresh token (and, seeing it replayed, ends the whole
    // grant), so keeping the old one instead of saving the new one would have been fatal.
    await expect(
      refreshIdToken({
        issuer: sandbox.idpIssuer,
        clientId: DEMO.standard.clientId,
        refreshToken: firstRefresh!,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('reports "sign-in needed" when the refresh token is refused, and signs in interactively on request', async () => {
    const user = username();
    const browser = headlessBrowser({ username: user });
    const before = make(sandbox, browser.openExternal);
    await before.manager.signIn();
    before.manager.dispose();
    // Revoked or expired at the IdP: the next start has a refresh token the IdP refuses.
    await before.secrets.set(SECRET_NAMES.oidcRefreshToken, 'a-refresh-token-the-idp-never-issued');

    const { manager, secrets } = make(sandbox, browser.openExternal, { secrets: before.secrets });
    await expect(manager.current()).rejects.toMatchObject({ id: 'sign_in_needed' });
    expect(manager.status()).toMatchObject({ signedIn: false, phase: 'sign-in-needed' });
    expect(manager.status().problem).toMatch(/Sign in again/);
    expect(await secrets.get(SECRET_NAMES.oidcRefreshToken)).toBeUndefined();
    expect(browser.opened).toHaveLength(1);

    await manager.signIn();
    expect(browser.opened).toHaveLength(2);
    expect(manager.status()).toMatchObject({ signedIn: true, phase: 'signed-in', providerId: user });
    expect(manager.status().problem).toBeUndefined();
  });

  it('unlocks with a fresh sign-in at the IdP, as the same person only', async () => {
    const user = username();
    let browser = headlessBrowser({ username: user });
    const { manager, secrets } = make(sandbox, (url) => browser.openExternal(url));
    await manager.signIn();
    const refreshBefore = await secrets.get(SECRET_NAMES.oidcRefreshToken);

    // Someone else at the keyboard signs in at the IdP: refused, and nothing of theirs is kept.
    browser = headlessBrowser({ username: `${user}-other` });
    await expect(manager.reauthenticate(user)).rejects.toMatchObject({
      id: 'sign_in_failed',
      sentence: expect.stringContaining(`this window is ${user}'s. It stays locked`),
    });
    await browser.lastWalk();
    const asked = new URL(browser.opened[0]!);
    // The IdP asks for the password whatever session its browser holds.
    expect(asked.searchParams.get('prompt')).toBe('login consent');
    expect(asked.searchParams.get('max_age')).toBe('0');
    expect(manager.status()).toMatchObject({ signedIn: true, providerId: user });
    expect(await secrets.get(SECRET_NAMES.oidcRefreshToken)).toBe(refreshBefore);

    // The clinician themself: accepted, with the new refresh token kept.
    browser = headlessBrowser({ username: user });
    await expect(manager.reauthenticate(user)).resolves.toBeUndefined();
    expect(manager.status()).toMatchObject({ signedIn: true, providerId: user });
    expect(await secrets.get(SECRET_NAMES.oidcRefreshToken)).not.toBe(refreshBefore);
  });

  it('the first Sign in after a Sign out asks the IdP for the password again', async () => {
    const user = username();
    const browser = headlessBrowser({ username: user });
    const { manager } = make(sandbox, browser.openExternal);
    await manager.signIn();
    await manager.signOut();
    await manager.signIn({ freshLogin: true });
    expect(browser.opened).toHaveLength(2);
    const first = new URL(browser.opened[0]!);
    const second = new URL(browser.opened[1]!);
    expect(first.searchParams.get('prompt')).toBe('consent');
    expect(first.searchParams.get('max_age')).toBeNull();
    expect(second.searchParams.get('prompt')).toBe('login consent');
    expect(second.searchParams.get('max_age')).toBe('0');
    expect(manager.status()).toMatchObject({ signedIn: true, providerId: user });
  });

  it('stops a pending sign-in on cancel and closes the loopback listener', async () => {
    const browser = idleBrowser();
    const { manager } = make(sandbox, browser.openExternal);
    const signingIn = manager.signIn();
    await eventually(() => browser.opened.length === 1);
    expect(manager.status().phase).toBe('waiting-for-browser');
    const redirectUri = new URL(browser.opened[0]!).searchParams.get('redirect_uri')!;

    manager.cancelSignIn();

    await expect(signingIn).rejects.toMatchObject({ id: 'sign_in_cancelled' });
    expect(manager.status()).toMatchObject({
      signedIn: false,
      phase: 'signed-out',
      problemId: 'sign_in_cancelled',
    });
    await expect(fetch(redirectUri)).rejects.toThrow();
  });

  it('gives up waiting for the browser after the timeout', async () => {
    const browser = idleBrowser();
    const { manager } = make(sandbox, browser.openExternal, { signInTimeoutMs: 300 });
    await expect(manager.signIn()).rejects.toMatchObject({ id: 'sign_in_timeout' });
    expect(manager.status().problem).toMatch(/not finished in the browser in time/);
  });

  it('ignores a redirect that does not carry this sign-in’s state', async () => {
    const user = username();
    const real = headlessBrowser({ username: user });
    let forged: Promise<Response> | undefined;
    const { manager } = make(sandbox, async (url) => {
      const redirectUri = new URL(url).searchParams.get('redirect_uri')!;
      // Another page on this machine hits the listener first, with a code of its own.
      forged = fetch(`${redirectUri}?code=forged&state=not-the-state`);
      await forged;
      await real.openExternal(url);
    });
    await expect(manager.signIn()).resolves.toMatchObject({ signedIn: true, providerId: user });
    expect((await forged!).status).toBe(400);
  });
});
