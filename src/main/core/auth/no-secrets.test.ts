import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../../sandbox/server';
import { SECRET_NAMES } from '../secrets/secret-box';
import { createRestClient } from '../service/rest-client';
import type { AuthManager } from './auth-manager';
import type { AuthStatus } from './auth-status';
import { headlessBrowser, idleBrowser } from './testing/headless-browser';
import {
  DEMO,
  fault,
  sharedTokenManager,
  standardManager,
  type TestManager,
} from './testing/sandbox-managers';
import { frozenClock } from './testing/test-ports';

/**
 * DESIGN.md: the renderer never sees a service token or a partner token, and nothing secret is
 * logged. Runs every path that has a token in hand (sign-in of each model, registration, OIDC
 * sign-in and refresh, renewal after a 401, failures of each kind) and then searches everything
 * a person or a log file could see for every secret used on the way.
 */
let sandbox: Sandbox;
const managers: TestManager[] = [];
const statuses: AuthStatus[] = [];
const errors: unknown[] = [];
const secrets = new Set<string>([DEMO.bearer.token, DEMO.singleAuth.token]);

function watch(made: TestManager): TestManager {
  managers.push(made);
  made.manager.onChange((status) => statuses.push(status));
  return made;
}

async function keep<T>(manager: AuthManager, work: Promise<T>): Promise<T | undefined> {
  try {
    const result = await work;
    const credentials = await manager.current().catch(() => undefined);
    if (credentials) secrets.add(credentials.serviceToken);
    return result;
  } catch (error) {
    errors.push(error);
    return undefined;
  } finally {
    statuses.push(manager.status());
  }
}

async function collectStoredSecrets(): Promise<void> {
  for (const { secrets: box } of managers) {
    for (const name of Object.values(SECRET_NAMES)) {
      const value = await box.get(name);
      if (value) secrets.add(value);
    }
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: 1, asr: 'energy', limitOverrides: { tokenLifetimeMs: 1_000 } });
});
afterAll(async () => {
  managers.forEach(({ manager }) => manager.dispose());
  await sandbox.close();
});

describe('no secret leaves the main process’s memory', () => {
  it('appears in no status, error or log line', async () => {
    // Shared-token partners: registration, login, a refused partner token, a missing one.
    for (const model of ['bearer', 'single_auth_token'] as const) {
      const made = watch(await sharedTokenManager(sandbox, model));
      await keep(made.manager, made.manager.current());
      const rest = createRestClient({
        endpoint: { baseUrl: sandbox.url },
        tokens: made.manager,
        log: made.log,
      });
      const id = await keep(made.manager, rest.createAmbientSession('visit1'));
      await keep(made.manager, rest.postAmbientContext(id!, { sections: ['NOT_A_SECTION'] }));
      await fault(sandbox, { action: 'fail_rest', count: 1 });
      await keep(made.manager, rest.ambientStatus(id!));
      await made.manager.setPartnerToken('a-wrong-partner-token-value');
      secrets.add('a-wrong-partner-token-value');
      await keep(made.manager, made.manager.current());
      await made.manager.setPartnerToken('');
      await keep(made.manager, made.manager.current());
    }

    // A 401 from the service and the renewal after it.
    const frozen = watch(await sharedTokenManager(sandbox, 'bearer', { clock: frozenClock() }));
    await keep(frozen.manager, frozen.manager.current());
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const rest = createRestClient({
      endpoint: { baseUrl: sandbox.url },
      tokens: frozen.manager,
      log: frozen.log,
    });
    await keep(frozen.manager, rest.formTemplates());

    // A standard partner: browser sign-in, refresh with the stored token, a refused refresh token.
    const browser = headlessBrowser({ username: `dr-secret-${Date.now()}`, name: 'Dr. Secret' });
    const standard = watch(standardManager(sandbox, browser.openExternal));
    await keep(standard.manager, standard.manager.signIn());
    await collectStoredSecrets();
    const restarted = watch(standardManager(sandbox, browser.openExternal, { secrets: standard.secrets }));
    await keep(restarted.manager, restarted.manager.current());
    await collectStoredSecrets();
    for (const url of browser.visited) {
      const code = new URL(url).searchParams.get('code');
      if (code) secrets.add(code);
    }
    await restarted.secrets.set(SECRET_NAMES.oidcRefreshToken, 'refused-refresh-token-value');
    secrets.add('refused-refresh-token-value');
    const refused = watch(
      standardManager(sandbox, idleBrowser().openExternal, { secrets: restarted.secrets }),
    );
    await keep(refused.manager, refused.manager.current());
    const cancelled = watch(standardManager(sandbox, idleBrowser().openExternal, { signInTimeoutMs: 50 }));
    await keep(cancelled.manager, cancelled.manager.signIn());

    // Everything a person or a log could see.
    const logLines = managers.flatMap(({ log }) => log.lines);
    const visible = JSON.stringify({
      statuses,
      errors: errors.map((e) => ({ ...(e as object), text: String(e), stack: (e as Error).stack })),
      logLines,
    });

    expect(statuses.length).toBeGreaterThan(20);
    expect(errors.length).toBeGreaterThanOrEqual(8);
    expect(logLines.length).toBeGreaterThan(20);
    // Enough secrets were in play for the search to mean something.
    expect(secrets.size).toBeGreaterThanOrEqual(10);
    for (const secret of secrets) expect(visible.includes(secret), 'a secret is visible').toBe(false);
    // ID tokens are never in hand here; no JWT of any kind may show.
    expect(visible).not.toMatch(/eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/);
    for (const status of statuses) {
      expect(Object.keys(status).filter((key) => /token/i.test(key))).toEqual([]);
    }
  });
});
