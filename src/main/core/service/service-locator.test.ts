import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/settings';
import { silentLogger } from '../ports';
import { createServiceLocator } from './service-locator';

const dataDirectory = mkdtempSync(join(tmpdir(), 'scribe-locator-'));
const locator = createServiceLocator({ dataDirectory, log: silentLogger });
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

  it('is started once, whatever the number of callers', async () => {
    const [a, b] = await Promise.all([locator.resolve(DEFAULT_SETTINGS), locator.resolve(DEFAULT_SETTINGS)]);
    expect(a.endpoint.baseUrl).toBe(b.endpoint.baseUrl);
  });
});
