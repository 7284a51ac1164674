import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../../sandbox/server';
import { SECRET_NAMES } from '../secrets/secret-box';
import { createRestClient } from '../service/rest-client';
import { sharedTokenManager, type TestManager } from './testing/sandbox-managers';
import { count, eventually, frozenClock } from './testing/test-ports';

/**
 * The service token's lifetime (spec "Authentication": 1 hour; here 2 s through the sandbox's
 * limitOverrides): renewed before it ends, and once after the service refuses it.
 */
const LIFETIME_MS = 2_000;
let sandbox: Sandbox;
const open: TestManager[] = [];
const make = async (...args: Parameters<typeof sharedTokenManager>) => {
  const made = await sharedTokenManager(...args);
  open.push(made);
  return made;
};
async function templatesStatus(serviceToken: string): Promise<number> {
  const response = await fetch(`${sandbox.url}/api/v1/info/service-medical-form-templates`, {
    headers: { sdp_service_token: serviceToken },
  });
  return response.status;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  sandbox = await startSandbox({
    timeScale: 1,
    asr: 'energy',
    limitOverrides: { tokenLifetimeMs: LIFETIME_MS },
  });
});
afterEach(() => {
  open.splice(0).forEach(({ manager }) => manager.dispose());
});
afterAll(() => sandbox.close());

describe('renewing the service token', () => {
  it('logs in again before the token ends, so calls never meet an expired token', async () => {
    const { manager, log } = await make(sandbox, 'bearer');
    const rest = createRestClient({ endpoint: { baseUrl: sandbox.url }, tokens: manager, log });
    const first = await manager.current();
    expect(first.expiresAt - Date.now()).toBeLessThanOrEqual(LIFETIME_MS);

    // Past the first token's end: the scheduled renewal (at 85 %) has replaced it already.
    await eventually(() => count(log, 'auth: signed in to the service') >= 2, LIFETIME_MS);
    const second = await manager.current();
    expect(second.serviceToken).not.toBe(first.serviceToken);
    expect(manager.status().validUntil).toBe(second.expiresAt);
    await sleep(first.expiresAt - Date.now() + 100);
    expect(Date.now()).toBeGreaterThan(first.expiresAt);

    await expect(rest.formTemplates()).resolves.toMatchObject({ templates: expect.any(Array) });
    expect(count(log, 'service call refused the token; renewing it')).toBe(0);
    expect(manager.status()).toMatchObject({ signedIn: true, phase: 'signed-in' });
  });

  it('after a 401, five concurrent renew() calls share one re-login', async () => {
    // The manager's clock stands still: it trusts its token while the sandbox lets it expire.
    const { manager, log } = await make(sandbox, 'bearer', { clock: frozenClock() });
    const stale = await manager.current();
    await sleep(LIFETIME_MS + 100);
    expect(await templatesStatus(stale.serviceToken)).toBe(401);
    const loginsBefore = count(log, 'auth: signed in to the service');

    const renewed = await Promise.all(Array.from({ length: 5 }, () => manager.renew()));

    expect(count(log, 'auth: signed in to the service')).toBe(loginsBefore + 1);
    expect(new Set(renewed.map((c) => c.serviceToken)).size).toBe(1);
    expect(renewed[0]!.serviceToken).not.toBe(stale.serviceToken);
  });

  it('REST calls refused with 401 renew once between them, then all succeed', async () => {
    const { manager, log } = await make(sandbox, 'single_auth_token', { clock: frozenClock() });
    const rest = createRestClient({ endpoint: { baseUrl: sandbox.url }, tokens: manager, log });
    await manager.current();
    await sleep(LIFETIME_MS + 100);

    const results = await Promise.all(Array.from({ length: 5 }, () => rest.formTemplates()));

    expect(results.every((r) => r.templates.length > 0)).toBe(true);
    expect(count(log, 'service call refused the token; renewing it')).toBe(5);
    expect(count(log, 'auth: signed in to the service')).toBe(2);
  });

  it('keeps the working token and says why when a background renewal fails', async () => {
    const { manager, secrets } = await make(sandbox, 'bearer');
    const working = await manager.current();
    // The partner token is withdrawn behind the app's back: the scheduled renewal is refused.
    await secrets.set(SECRET_NAMES.partnerToken, 'a-withdrawn-partner-token');
    await eventually(() => manager.status().problemId === 'invalid_sdp_token', LIFETIME_MS);

    expect(manager.status()).toMatchObject({
      signedIn: true,
      phase: 'signed-in',
      validUntil: working.expiresAt,
    });
    expect(manager.status().problem).toMatch(/did not accept the sign-in/);
    expect(await templatesStatus(working.serviceToken)).toBe(200);
  });
});
