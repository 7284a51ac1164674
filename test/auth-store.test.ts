import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { walkBrowser } from '../sandbox/idp/headless-sign-in';
import type { AppCore } from '../src/main/core/app-core';
import { bindAppEvents, createAppStore, type AppStore } from '../src/renderer/store/app-store';
import { inProcessApi } from './support/in-process-api';
import { systemClock } from '../src/main/core/ports';
import { createTestCore } from './support/test-core';

/**
 * The renderer's sign-in, without React, against the real core and its built-in sandbox: each
 * partner model signs in, and no token of any kind ever reaches the store.
 */
const DEMO_BEARER_TOKEN = 'sandbox-bearer-partner-token';
const JWT_SHAPED = /eyJ[\w-]+\.[\w-]+\./;

let core: AppCore;
let api: ReturnType<typeof inProcessApi>;
let store: AppStore;
let opened: string[];
let unbind: () => void;

/** A fresh core, and the window's store bound to it. */
async function useCore(overrides: Parameters<typeof createTestCore>[0] = {}) {
  core = await createTestCore(overrides);
  api = inProcessApi(core);
  store = createAppStore(api);
  opened = [];
  unbind = bindAppEvents(store, api, Date.now, (url) => opened.push(url));
  await store.getState().loadSettings();
}
beforeEach(() => useCore());
afterEach(async () => {
  unbind();
  await core.stop();
});

/** Everything the store holds, as text (its functions drop out). */
const stateText = () => JSON.stringify(store.getState());

function expectNoSecrets(...secrets: string[]): void {
  const text = stateText();
  for (const secret of secrets) expect(text).not.toContain(secret);
  expect(text).not.toMatch(JWT_SHAPED);
}

async function until<T>(read: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('sign-in in the store', () => {
  it('bearer through the built-in sandbox: signs in with no token typed, and shows until when', async () => {
    await store.getState().loadAuth();
    expect(store.getState().auth).toMatchObject({ model: 'bearer', signedIn: false, demo: true });
    expect(store.getState().secrets).toMatchObject({ partnerTokenStored: false });

    const before = Date.now();
    await store.getState().signIn();
    const auth = store.getState().auth;
    expect(auth).toMatchObject({ signedIn: true, signingIn: false, providerId: 'demo-clinician' });
    expect(auth?.problem).toBeUndefined();
    // The sandbox's service token lasts an hour.
    expect(auth?.validUntil).toBeGreaterThan(before + 55 * 60_000);
    expect(auth?.validUntil).toBeLessThanOrEqual(Date.now() + 60 * 60_000);
    expectNoSecrets(DEMO_BEARER_TOKEN);

    await store.getState().signOut();
    expect(store.getState().auth).toMatchObject({ signedIn: false });
    expect(store.getState().auth?.validUntil).toBeUndefined();
  });

  it('once set up, a bearer partner signs in by itself (nothing to ask the clinician)', async () => {
    // A partner ID kept from a real service does not matter: the sandbox uses its demo partner.
    expect(await store.getState().saveSettings({ partnerId: 'clinic7', firstRunComplete: true })).toBe(true);
    await until(() => (store.getState().auth?.signedIn ? true : undefined), 'signed in');
    expect(store.getState().auth).toMatchObject({
      model: 'bearer',
      providerId: 'demo-clinician',
      demo: true,
    });
    expect(opened).toEqual([]);
    expectNoSecrets(DEMO_BEARER_TOKEN);
  });

  it('a partner token goes to main, only "stored" comes back, and the demo still signs in', async () => {
    const typed = 'partner-token-for-the-real-service';
    expect(await store.getState().savePartnerToken(typed)).toBe(true);
    expect(store.getState().partnerTokenState).toBe('stored');
    expect(store.getState().secrets).toMatchObject({ partnerTokenStored: true });
    // A token stored for a real service is not the sandbox's: the demo keeps its own.
    await store.getState().signIn();
    expect(store.getState().auth).toMatchObject({ signedIn: true, demo: true });
    expectNoSecrets(typed, DEMO_BEARER_TOKEN);
  });

  it('names a partner token that cannot be right, and sends nothing', async () => {
    expect(await store.getState().savePartnerToken('short')).toBe(false);
    expect(store.getState().partnerTokenProblem).toBe(
      'Partner token must be the partner token from onboarding (at least 8 characters).',
    );
    expect(api.calls).not.toContain('secrets.setPartnerToken');
  });

  it('standard through the built-in sandbox: opens the sign-in page, and is signed in once the IdP is done', async () => {
    expect(await store.getState().saveSettings({ authModel: 'standard', firstRunComplete: true })).toBe(true);
    // A standard partner waits for the clinician: no browser opens by itself. The status meant is
    // the standard partner's (on a slow machine the built-in bearer partner's sign-in, begun as the
    // core started, reported after the save and was read as it).
    await until(
      () => (store.getState().auth?.model === 'standard' ? true : undefined),
      'the standard status',
    );
    expect(store.getState().auth).toMatchObject({ model: 'standard', signedIn: false, signingIn: false });
    expect(opened).toEqual([]);
    const signingIn = store.getState().signIn();
    const url = await until(() => opened[0], 'auth.openUrl');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/idp\/auth\?/);
    expect(store.getState().auth).toMatchObject({ model: 'standard', signingIn: true, signedIn: false });
    // Kept for the panel's "open the sign-in page" link, in case the browser blocked the tab.
    expect(store.getState().signInUrl).toBe(url);

    // The clinician signs in at the sandbox's IdP (fetch plays the browser).
    const redirect = new URL(new URL(url).searchParams.get('redirect_uri') ?? '');
    await walkBrowser(new URL(url), redirect, { username: 'dr-store', name: 'Dr Store' });
    await signingIn;
    expect(store.getState().auth).toMatchObject({ signedIn: true, signingIn: false, providerId: 'dr-store' });
    expect(store.getState().auth?.validUntil).toBeGreaterThan(Date.now());
    expect(store.getState().signInUrl).toBeNull();
    expectNoSecrets();
  });

  it('standard: Cancel stops the wait for the browser', async () => {
    await store.getState().saveSettings({ authModel: 'standard', firstRunComplete: true });
    const signingIn = store.getState().signIn();
    await until(() => opened[0], 'auth.openUrl');
    await until(() => (store.getState().auth?.signingIn ? true : undefined), 'signingIn');
    await store.getState().cancelSignIn();
    await signingIn;
    expect(store.getState().auth).toMatchObject({ signedIn: false, signingIn: false });
    expect(store.getState().auth?.problem).toBe('Sign-in was cancelled.');
    expect(store.getState().signInUrl).toBeNull();
  });

  /**
   * Issue 39, item 1: after Sign out, a Sign in that ends without completing (Cancel, or the IdP
   * page left until the wait runs out) still owes the password, and the next Sign in asks for it.
   */
  const owesThePasswordAfter = async (end: () => Promise<void>) => {
    await store.getState().saveSettings({ authModel: 'standard', firstRunComplete: true });
    await until(
      () => (store.getState().auth?.model === 'standard' ? true : undefined),
      'the standard status',
    );
    /** Whether the IdP page the app opened asks for the password whatever session the browser holds. */
    const asksPassword = (url: string) => {
      const params = new URL(url).searchParams;
      return params.get('prompt')?.split(' ').includes('login') === true && params.get('max_age') === '0';
    };
    const signInAs = async (username: string, index: number) => {
      const signingIn = store.getState().signIn();
      const url = await until(() => opened[index], `sign-in page ${index}`);
      await walkBrowser(new URL(url), new URL(new URL(url).searchParams.get('redirect_uri') ?? ''), {
        username,
      });
      await signingIn;
      return url;
    };
    // No record of a sign-out on this computer yet: the first sign-in asks too (fails closed).
    expect(asksPassword(await signInAs('dr-first', 0))).toBe(true);
    expect(store.getState().auth).toMatchObject({ signedIn: true, providerId: 'dr-first' });

    await store.getState().signOut();
    // The next person presses Sign in, and it ends without a sign-in.
    const unfinished = store.getState().signIn();
    expect(asksPassword(await until(() => opened[1], 'the unfinished sign-in page'))).toBe(true);
    await until(() => (store.getState().auth?.signingIn ? true : undefined), 'signingIn');
    await end();
    await unfinished;
    expect(store.getState().auth).toMatchObject({ signedIn: false });

    // Sign in again: still the password step, not the last clinician's IdP session.
    expect(asksPassword(await signInAs('dr-second', 2))).toBe(true);
    expect(store.getState().auth).toMatchObject({ signedIn: true, providerId: 'dr-second' });
  };

  it('standard: a Sign in cancelled after Sign out still owes the password, and the next Sign in asks for it (issue 39, item 1)', async () => {
    await owesThePasswordAfter(() => store.getState().cancelSignIn());
  });

  it('standard: a Sign in left until its wait runs out, after Sign out, still owes the password (issue 39, item 1)', async () => {
    // The 5-minute wait for the IdP page runs out when the test says so, every other timer as it
    // is. A 300 ms stand-in for it also ran out the sign-ins that must finish on a machine half as
    // fast (the first one's redirect came after its listener had closed: ECONNREFUSED).
    const SIGN_IN_WAIT_MS = 5 * 60_000;
    const waits: { pending: boolean; runOut: () => void }[] = [];
    unbind();
    await core.stop();
    await useCore({
      clock: {
        ...systemClock,
        after: (ms, fire) => {
          if (ms !== SIGN_IN_WAIT_MS) return systemClock.after(ms, fire);
          const wait = {
            pending: true,
            runOut: () => {
              if (!wait.pending) return;
              wait.pending = false;
              fire();
            },
          };
          waits.push(wait);
          const cancel = systemClock.after(ms, wait.runOut);
          return () => {
            wait.pending = false;
            cancel();
          };
        },
      },
    });
    await owesThePasswordAfter(async () => {
      // The unfinished sign-in's wait is the one still running: the first sign-in's ended with it.
      const running = waits.filter((wait) => wait.pending);
      expect(running).toHaveLength(1);
      running[0]!.runOut();
      await until(() => store.getState().auth?.problem, 'the sign-in to time out');
      expect(store.getState().auth?.problem).toContain('not finished in the browser in time');
    });
  });

  it('opens only https or loopback pages that main asks for', () => {
    core.events.emit('auth.openUrl', { url: 'file:///etc/passwd' });
    core.events.emit('auth.openUrl', { url: 'javascript:alert(1)' });
    core.events.emit('auth.openUrl', { url: 'http://sign-in.example.org/authorize' });
    expect(opened).toEqual([]);
    expect(store.getState().signInUrl).toBeNull();
  });

  it('a service that cannot be reached: one sentence that says what to do', async () => {
    // The token first, as the service page does, for the address saved with it (issue 28: a
    // token is kept for the address it was entered for).
    await store
      .getState()
      .savePartnerToken('partner-token-of-the-clinic', { kind: 'url', baseUrl: 'http://127.0.0.1:9' });
    await store.getState().saveSettings({
      service: { kind: 'url', baseUrl: 'http://127.0.0.1:9' },
      partnerId: 'clinic',
      providerId: 'dr-offline',
      firstRunComplete: true,
    });
    await store.getState().signIn();
    expect(store.getState().auth).toMatchObject({ signedIn: false, demo: false });
    expect(store.getState().auth?.problem).toBe(
      'The documentation service cannot be reached, so the app could not sign in. Check the network connection, then sign in again.',
    );
  });
});

describe('settings the sign-in depends on', () => {
  it('a standard partner of a real service needs its partner ID and identity provider, named at once', async () => {
    const saved = await store.getState().saveSettings({
      service: { kind: 'url', baseUrl: 'https://scribe.example.org' },
      authModel: 'standard',
      oidcIssuer: '',
      oidcClientId: ' ',
    });
    expect(saved).toBe(false);
    expect(store.getState().fieldProblems).toEqual({
      partnerId: 'Partner ID is needed: the ID the service issued at onboarding.',
      oidcIssuer:
        'Identity provider (issuer) URL is needed: your organisation’s OpenID Connect issuer, from IT.',
      oidcClientId:
        'Client ID at the identity provider is needed: this app’s client ID at the identity provider.',
    });
    expect(api.calls).not.toContain('settings.set');
  });

  it('a bearer partner of a real service: a malformed address and every missing field in one answer', async () => {
    const saved = await store.getState().saveSettings({
      service: { kind: 'url', baseUrl: 'http://scribe.example.org' },
      authModel: 'bearer',
      partnerId: ' ',
      providerId: '',
    });
    expect(saved).toBe(false);
    expect(Object.keys(store.getState().fieldProblems).sort()).toEqual([
      'partnerId',
      'partnerToken',
      'providerId',
      'service.baseUrl',
    ]);
    // A page that has the token typed (not yet stored) is not told it is missing.
    expect(
      store.getState().checkSettings(
        {
          service: { kind: 'url', baseUrl: 'https://scribe.example.org' },
          partnerId: 'c',
          providerId: 'p',
        },
        { partnerTokenTyped: true },
      ),
    ).toBe(true);
    expect(api.calls).not.toContain('settings.set');
  });

  it('names an auto-pause delay outside 2–20 seconds', async () => {
    expect(await store.getState().saveSettings({ autoPauseAfterMs: 1_000 })).toBe(false);
    expect(store.getState().fieldProblems.autoPauseAfterMs).toBe(
      'Auto-pause delay must be between 2 and 20 seconds.',
    );
    expect(await store.getState().saveSettings({ autoPauseAfterMs: 25_000 })).toBe(false);
    expect(await store.getState().saveSettings({ autoPauseAfterMs: 6_000 })).toBe(true);
    expect(core.settings.get().autoPauseAfterMs).toBe(6_000);
  });
});
