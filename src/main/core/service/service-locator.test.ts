import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signInHeadless } from '../../../../sandbox/idp/headless-sign-in';
import { DEFAULT_PARTNERS } from '../../../../sandbox/partners';
import { DEFAULT_SETTINGS } from '../../../shared/settings';
import { silentLogger } from '../ports';
import { createServiceLocator } from './service-locator';

const dataDirectory = mkdtempSync(join(tmpdir(), 'scribe-locator-'));
const locator = createServiceLocator({
  dataDirectory,
  log: silentLogger,
  spoolKey: async () => new Uint8Array(32).fill(7),
});
afterAll(async () => {
  await locator.close();
  rmSync(dataDirectory, { recursive: true, force: true });
});

describe('the built-in demo service', () => {
  it('serves the service interface, but no test control route: nothing local can read a visit or inject a fault', async () => {
    const demo = await locator.resolve(DEFAULT_SETTINGS);
    expect(demo.demo).toBe(true);
    const base = demo.endpoint.baseUrl;
    // The interface answers: a login with the demo partner's own token for a provider not yet
    // registered gets the interface's own refusal...
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        partner_id: demo.partnerId,
        partner_token: demo.builtinPartnerToken,
        provider_id: 'dr-locator',
      }),
    });
    expect(login.status).toBe(401);
    expect(await login.json()).toMatchObject({ message: expect.stringMatching(/provider_not_registered/) });
    // ...and no /__sandbox/ route does, whatever is asked.
    for (const [method, path] of [
      ['GET', '/__sandbox/sessions'],
      ['GET', '/__sandbox/notifications'],
      ['GET', '/__sandbox/providers'],
      ['POST', '/__sandbox/faults'],
    ] as const) {
      const response = await fetch(`${base}${path}`, {
        method,
        ...(method === 'POST'
          ? { headers: { 'content-type': 'application/json' }, body: '{"action":"clear"}' }
          : {}),
      });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
  });

  it('has its own partner tokens and webhook secrets for this launch, not the published samples', async () => {
    const published = DEFAULT_PARTNERS.flatMap((p) => [
      ...('partner_token' in p ? [p.partner_token] : []),
      ...(p.webhook_secret ? [p.webhook_secret] : []),
    ]);
    for (const authModel of ['bearer', 'single_auth_token'] as const) {
      const demo = await locator.resolve({ ...DEFAULT_SETTINGS, authModel });
      expect(demo.builtinPartnerToken, authModel).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(published).not.toContain(demo.builtinPartnerToken);
      if (demo.webhook) expect(published).not.toContain(demo.webhook.secret);
    }
    // The published sample token signs nobody in.
    const demo = await locator.resolve(DEFAULT_SETTINGS);
    const sample = DEFAULT_PARTNERS.find((p) => p.partner_id === demo.partnerId)!;
    const login = await fetch(`${demo.endpoint.baseUrl}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        partner_id: demo.partnerId,
        partner_token: 'partner_token' in sample ? sample.partner_token : '',
        provider_id: 'dr-locator',
      }),
    });
    expect(login.status).toBe(401);
    expect(await login.json()).toMatchObject({ message: expect.stringMatching(/invalid_sdp_token|partner/) });
  });

  it('answers only its own address: another host name for loopback gets 421 (DNS rebinding)', async () => {
    const { port } = new URL((await locator.resolve(DEFAULT_SETTINGS)).endpoint.baseUrl);
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        request({
          host: '127.0.0.1',
          port,
          path: '/api/v1/info/service-medical-form-templates',
          headers: { host },
        })
          .once('response', (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          })
          .once('error', reject)
          .end();
      });
    expect(await status(`localhost:${port}`)).toBe(421);
    expect(await status(`attacker.example:${port}`)).toBe(421);
    // Its own address reaches the interface (which wants a token there).
    expect(await status(`127.0.0.1:${port}`)).toBe(401);
  });

  it('signs nobody in through its identity provider but the app: the sign-in page asks no password, so the code needs this launch’s client secret', async () => {
    const demo = await locator.resolve({ ...DEFAULT_SETTINGS, authModel: 'standard' });
    const { issuer, clientId, clientSecret } = demo.oidc!;
    expect(clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Another program walks the sign-in as the clinician, with the client id anyone can read.
    await expect(signInHeadless({ issuer, clientId, username: 'demo-clinician' })).rejects.toMatchObject({
      error: 'invalid_client',
    });
    // The app, holding the secret, signs in, and the service takes the ID token.
    const tokens = await signInHeadless({ issuer, clientId, clientSecret, username: 'dr-locator-std' });
    const register = await fetch(`${demo.endpoint.baseUrl}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        partner_id: demo.partnerId,
        partner_token: tokens.idToken,
        provider_name: 'Dr Std',
        provider_org_id: 'demo-clinic',
      }),
    });
    expect(register.status).toBe(201);
  });

  it('is started once, whatever the number of callers', async () => {
    const [a, b] = await Promise.all([locator.resolve(DEFAULT_SETTINGS), locator.resolve(DEFAULT_SETTINGS)]);
    expect(a.endpoint.baseUrl).toBe(b.endpoint.baseUrl);
  });
});
