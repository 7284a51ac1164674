import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../../sandbox/server';
import { SECRET_NAMES } from '../secrets/secret-box';
import { ServiceCallError } from '../service/service-error';
import type { AuthStatus } from './auth-status';
import {
  DEMO,
  fault,
  freshProviderId,
  registerDirectly,
  registeredProviders,
  sharedTokenManager,
  type TestManager,
} from './testing/sandbox-managers';
import { count } from './testing/test-ports';

/** Bearer and Single Auth Token partners against the real sandbox (spec "Authentication"). */
let sandbox: Sandbox;
const open: TestManager[] = [];
const make = async (...args: Parameters<typeof sharedTokenManager>) => {
  const made = await sharedTokenManager(...args);
  open.push(made);
  return made;
};

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: 0.05, asr: 'energy' });
});
afterEach(() => {
  open.splice(0).forEach(({ manager }) => manager.dispose());
});
afterAll(() => sandbox.close());

async function callStatusRoute(baseUrl: string, headers: Record<string, string>): Promise<number> {
  // Any authenticated route tells whether the sandbox accepts the credentials.
  const response = await fetch(`${baseUrl}/api/v1/info/service-medical-form-templates`, { headers });
  return response.status;
}

describe.each(['bearer', 'single_auth_token'] as const)('%s partner', (model) => {
  it('registers a provider the service does not know, then signs in, without asking anyone', async () => {
    const { manager, log } = await make(sandbox, model);
    const changes: AuthStatus[] = [];
    manager.onChange((status) => changes.push(status));
    const providerId = manager.status().providerId;

    const credentials = await manager.current();

    expect(credentials.serviceToken).toBeTruthy();
    expect(credentials.expiresAt).toBeGreaterThan(Date.now());
    expect(count(log, 'auth: provider not registered yet; registering')).toBe(1);
    expect(count(log, 'auth: signed in to the service')).toBe(1);
    expect(await registeredProviders(sandbox)).toContainEqual({
      provider_id: providerId,
      partners: [model === 'bearer' ? DEMO.bearer.partnerId : DEMO.singleAuth.partnerId],
    });
    const status = manager.status();
    expect(status).toMatchObject({ signedIn: true, phase: 'signed-in', model, providerId });
    expect(status.validUntil).toBe(credentials.expiresAt);
    expect(status.problem).toBeUndefined();
    expect(changes.map((c) => c.phase)).toEqual(['signing-in', 'signed-in']);

    // The token works on the service, with sdp_provider_id for Single Auth Token partners.
    const headers: Record<string, string> = { sdp_service_token: credentials.serviceToken };
    if (model === 'single_auth_token') {
      expect(credentials.providerHeader).toBe(providerId);
      headers.sdp_provider_id = providerId;
    } else {
      expect(credentials.providerHeader).toBeUndefined();
    }
    expect(await callStatusRoute(sandbox.url, headers)).toBe(200);
  });

  it('signs in a provider that was registered elsewhere first (Login works at once)', async () => {
    const { manager, log } = await make(sandbox, model);
    const demo = model === 'bearer' ? DEMO.bearer : DEMO.singleAuth;
    const provider = { partner_id: demo.partnerId, partner_token: demo.token };
    const providerId = manager.status().providerId;
    expect(await registerDirectly(sandbox, { ...provider, provider_id: providerId })).toBe(201);
    // Registering again is what the service answers with 409 provider_already_registered.
    expect(await registerDirectly(sandbox, { ...provider, provider_id: providerId })).toBe(409);

    await expect(manager.current()).resolves.toMatchObject({ serviceToken: expect.any(String) });
    expect(count(log, 'auth: provider not registered yet; registering')).toBe(0);
    expect(manager.status().signedIn).toBe(true);
  });

  it('treats Register’s 409 as success when another device registered the provider in between', async () => {
    // Five devices of one new provider sign in at the same moment: all see "not registered", one
    // Register wins with 201 and the others get 409 provider_already_registered.
    const providerId = freshProviderId();
    const devices = await Promise.all(Array.from({ length: 5 }, () => make(sandbox, model, { providerId })));
    const credentials = await Promise.all(devices.map(({ manager }) => manager.current()));

    expect(credentials.every((c) => c.serviceToken.length > 0)).toBe(true);
    const registering = devices.reduce(
      (n, d) => n + count(d.log, 'auth: provider not registered yet; registering'),
      0,
    );
    const conflicts = devices.reduce((n, d) => n + count(d.log, 'auth: provider was already registered'), 0);
    expect(registering).toBeGreaterThanOrEqual(2);
    expect(conflicts).toBe(registering - 1);
    expect(devices.every(({ manager }) => manager.status().signedIn && !manager.status().problem)).toBe(true);
  });

  it('says which secret to enter when no partner token is stored', async () => {
    const { manager, secrets } = await make(sandbox, model);
    await secrets.delete(SECRET_NAMES.partnerToken);
    const error = await manager.current().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceCallError);
    expect(error).toMatchObject({ id: 'partner_token_missing', status: 0 });
    expect((error as ServiceCallError).sentence).toMatch(/partner token/i);
    expect(manager.status()).toMatchObject({
      signedIn: false,
      phase: 'signed-out',
      problemId: 'partner_token_missing',
      problem: (error as ServiceCallError).sentence,
    });
  });

  it('says the partner token was refused, and signs in once a good one is entered', async () => {
    const { manager } = await make(sandbox, model);
    await manager.setPartnerToken('not-the-partner-token');
    await expect(manager.current()).rejects.toMatchObject({ status: 401, id: 'invalid_sdp_token' });
    expect(manager.status().problemId).toBe('invalid_sdp_token');

    await manager.setPartnerToken(model === 'bearer' ? DEMO.bearer.token : DEMO.singleAuth.token);
    expect(manager.status().problem).toBeUndefined();
    await expect(manager.current()).resolves.toMatchObject({ serviceToken: expect.any(String) });
  });

  it('asks for the provider ID when it is missing', async () => {
    const { manager } = await make(sandbox, model, { providerId: '  ' });
    await expect(manager.current()).rejects.toMatchObject({ id: 'not_configured' });
    expect(manager.status().problem).toMatch(/provider ID/);
  });

  it('cannot register without the provider profile, and says what is missing', async () => {
    const { manager } = await make(sandbox, model, { profile: { name: 'Dr. Dana Demo' } });
    await expect(manager.current()).rejects.toMatchObject({ id: 'profile_incomplete' });
    expect(manager.status().problem).toMatch(/organization ID/);
  });
});

describe('sign-in through a flaky service', () => {
  it('retries Login after 500s and still signs in', async () => {
    const { manager, log } = await make(sandbox, 'bearer', { retry: { baseDelayMs: 20 } });
    // The provider is registered first so that the faults hit Login itself.
    await manager.current();
    await manager.signOut();
    await fault(sandbox, { action: 'fail_rest', count: 2 });
    await expect(manager.signIn()).resolves.toMatchObject({ signedIn: true });
    expect(count(log, 'auth: service call failed; retrying')).toBe(2);
  });

  it('gives one login to many callers at once', async () => {
    const { manager, log } = await make(sandbox, 'bearer');
    const all = await Promise.all(Array.from({ length: 5 }, () => manager.current()));
    expect(new Set(all.map((c) => c.serviceToken)).size).toBe(1);
    expect(count(log, 'auth: signed in to the service')).toBe(1);
  });

  it('signs out, and nothing signs in again until Sign in (issue 29: the token is the organisation’s)', async () => {
    const { manager } = await make(sandbox, 'single_auth_token');
    const first = await manager.current();
    await manager.signOut();
    expect(manager.status()).toMatchObject({ signedIn: false, phase: 'signed-out' });
    expect(manager.status().validUntil).toBeUndefined();
    await expect(manager.current()).rejects.toMatchObject({ id: 'signed_out' });
    await expect(manager.renew()).rejects.toMatchObject({ id: 'signed_out' });
    await manager.signIn();
    const second = await manager.current();
    expect(second.serviceToken).not.toBe(first.serviceToken);
    expect(freshProviderId()).not.toBe(manager.status().providerId);
  });
});
