import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../server';
import { signInHeadless } from '../idp/headless-sign-in';
import { ServiceClient } from '../test-support/service-client';

/** Spec "Authentication" and docs/protocol.md "Authentication", over real HTTP. */
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ asr: 'energy' });
});
afterAll(() => sandbox.close());

const bearer = { partner_id: 'demo-bearer', partner_token: 'sandbox-bearer-partner-token' };
const single = { partner_id: 'demo-single-auth', partner_token: 'sandbox-single-auth-partner-token' };
const profile = {
  provider_name: 'Dr Ada Demo',
  provider_org_id: 'clinic-1',
  provider_specialty: 'CARDIOLOGY',
};

describe('Login and Register', () => {
  it('refuses an unregistered provider with 401 provider_not_registered, then Register → Login works', async () => {
    const client = new ServiceClient(sandbox.url);
    const first = await client.call('POST', '/api/v1/auth/login', { ...bearer, provider_id: 'dr-new' });
    expect(first).toEqual({
      status: 401,
      body: { code: 401, message: expect.stringMatching(/^provider_not_registered: /) },
    });

    const registered = await client.call('POST', '/api/v1/auth/register', {
      ...bearer,
      provider_id: 'dr-new',
      ...profile,
    });
    expect(registered.status).toBe(201);

    const login = await client.call('POST', '/api/v1/auth/login', { ...bearer, provider_id: 'dr-new' });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ service_token: expect.any(String), expires_in: 3600 });
    expect(String(login.body.service_token).split('.')).toHaveLength(3);
  });

  it('answers Register with 201 for a new user, 201 when linking to another partner, 409 when already linked', async () => {
    const client = new ServiceClient(sandbox.url);
    const body = { ...bearer, provider_id: 'dr-multi', ...profile };
    expect((await client.call('POST', '/api/v1/auth/register', body)).status).toBe(201);
    const linked = await client.call(
      'POST',
      '/api/v1/auth/register',
      { ...body, ...single },
      { sdp_provider_id: 'dr-multi' },
    );
    expect(linked.status).toBe(201);
    const again = await client.call('POST', '/api/v1/auth/register', body);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      code: 409,
      message: expect.stringMatching(/^provider_already_registered: /),
    });
  });

  it('refuses a wrong partner token and an unknown partner with 401 invalid_sdp_token', async () => {
    const client = new ServiceClient(sandbox.url);
    const wrong = await client.call('POST', '/api/v1/auth/login', {
      ...bearer,
      partner_token: 'nope-nope-nope-nope',
      provider_id: 'x',
    });
    expect(wrong).toMatchObject({
      status: 401,
      body: { code: 401, message: expect.stringMatching(/^invalid_sdp_token: /) },
    });
    const unknown = await client.call('POST', '/api/v1/auth/login', {
      ...bearer,
      partner_id: 'nobody',
      provider_id: 'x',
    });
    expect(unknown.status).toBe(401);
  });

  it('requires provider_id for bearer and single-auth partners, and names the field', async () => {
    const client = new ServiceClient(sandbox.url);
    const reply = await client.call('POST', '/api/v1/auth/login', bearer);
    expect(reply).toMatchObject({ status: 400, body: { message: expect.stringContaining('provider_id') } });
    const missing = await client.call('POST', '/api/v1/auth/register', { ...bearer, provider_id: 'a' });
    expect(missing).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^invalid_request: .*provider_name/) },
    });
  });

  it('for Single Auth Token partners need sdp_provider_id on Login and Register too, equal to provider_id', async () => {
    const client = new ServiceClient(sandbox.url);
    const login = { ...single, provider_id: 'dr-header' };
    const register = { ...login, ...profile };
    const missingHeader = {
      status: 400,
      body: { code: 400, message: expect.stringMatching(/^missing_sdp_provider_id_header: /) },
    };
    const otherProvider = {
      status: 400,
      body: { code: 400, message: expect.stringMatching(/^invalid_sdp_provider_id: /) },
    };
    expect(await client.call('POST', '/api/v1/auth/register', register)).toEqual(missingHeader);
    expect(await client.call('POST', '/api/v1/auth/login', login)).toEqual(missingHeader);
    const elsewhere = { sdp_provider_id: 'dr-someone-else' };
    expect(await client.call('POST', '/api/v1/auth/register', register, elsewhere)).toEqual(otherProvider);
    expect(await client.call('POST', '/api/v1/auth/login', login, elsewhere)).toEqual(otherProvider);
    // Nothing was registered by the refused calls: the first Register with the header is new.
    const own = { sdp_provider_id: 'dr-header' };
    expect((await client.call('POST', '/api/v1/auth/register', register, own)).status).toBe(201);
    const signedIn = await client.call('POST', '/api/v1/auth/login', login, own);
    expect(signedIn).toMatchObject({ status: 200, body: { service_token: expect.any(String) } });
  });

  it('do not need sdp_provider_id on Login and Register for bearer partners', async () => {
    const client = new ServiceClient(sandbox.url);
    const login = { ...bearer, provider_id: 'dr-no-header' };
    expect((await client.call('POST', '/api/v1/auth/register', { ...login, ...profile })).status).toBe(201);
    expect((await client.call('POST', '/api/v1/auth/login', login)).status).toBe(200);
  });

  it('refuses malformed bodies with 400, never 5xx', async () => {
    const client = new ServiceClient(sandbox.url);
    for (const body of ['{', '[]', '"x"', 'null', JSON.stringify({ partner_id: 5 })]) {
      const reply = await client.call('POST', '/api/v1/auth/login', body);
      expect(reply.status, body).toBe(400);
      expect(reply.body).toMatchObject({ code: 400, message: expect.stringMatching(/^invalid_request: /) });
    }
  });
});

describe('standard partners (OpenID Connect ID token from the partner IdP)', () => {
  it('sign in at the IdP, then Register and Login with the ID token as partner_token', async () => {
    const { idToken } = await signInHeadless({
      issuer: sandbox.idpIssuer,
      clientId: 'ambient-scribe-desktop',
      username: 'dr-oidc',
      name: 'Dr Oidc',
    });
    const client = new ServiceClient(sandbox.url);
    const standard = { partner_id: 'demo-standard', partner_token: idToken };
    const unregistered = await client.call('POST', '/api/v1/auth/login', standard);
    expect(unregistered.body).toMatchObject({
      code: 401,
      message: expect.stringMatching(/^provider_not_registered: /),
    });
    // provider_id is optional and ignored for standard partners: identity comes from the token.
    expect(
      (
        await client.call('POST', '/api/v1/auth/register', {
          ...standard,
          provider_id: 'ignored',
          ...profile,
        })
      ).status,
    ).toBe(201);
    const login = await client.call('POST', '/api/v1/auth/login', standard);
    expect(login.status).toBe(200);
    const providers = (await (await fetch(`${sandbox.url}/__sandbox/providers`)).json()) as {
      providers: { provider_id: string }[];
    };
    expect(providers.providers.map((p) => p.provider_id)).toContain('dr-oidc');
  });

  it('refuses a tampered ID token with 401 invalid_sdp_token', async () => {
    const { idToken } = await signInHeadless({
      issuer: sandbox.idpIssuer,
      clientId: 'ambient-scribe-desktop',
      username: 'dr-tamper',
    });
    const [header, payload, signature] = idToken.split('.');
    const forged = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    forged.sub = 'dr-someone-else';
    const token = [header, Buffer.from(JSON.stringify(forged)).toString('base64url'), signature].join('.');
    const reply = await new ServiceClient(sandbox.url).call('POST', '/api/v1/auth/login', {
      partner_id: 'demo-standard',
      partner_token: token,
    });
    expect(reply).toMatchObject({
      status: 401,
      body: { message: expect.stringMatching(/^invalid_sdp_token: /) },
    });
  });
});

describe('authenticated calls', () => {
  it('need sdp_service_token: missing or forged → 401 invalid_sdp_token', async () => {
    const client = new ServiceClient(sandbox.url);
    const missing = await client.call('POST', '/api/v1/ambient/session/create', { encounter_id: 'e1' });
    expect(missing).toMatchObject({
      status: 401,
      body: { message: expect.stringMatching(/^invalid_sdp_token: /) },
    });
    client.token = 'eyJhbGciOiJIUzI1NiJ9.eyJwaWQiOiJ4In0.forged';
    expect((await client.call('POST', '/api/v1/ambient/session/create', { encounter_id: 'e1' })).status).toBe(
      401,
    );
  });

  it('refuse credentials in query parameters', async () => {
    const client = new ServiceClient(sandbox.url);
    await client.signIn({ ...bearer, provider_id: 'dr-query' });
    const reply = await client.call(
      'GET',
      `/api/v1/info/service-medical-form-templates?sdp_service_token=${client.token}`,
    );
    expect(reply.status).toBe(400);
  });

  it('for Single Auth Token partners need sdp_provider_id equal to the token’s provider', async () => {
    const client = new ServiceClient(sandbox.url);
    client.providerHeader = 'dr-single';
    await client.signIn({ ...single, provider_id: 'dr-single' });
    delete client.providerHeader;
    const missing = await client.call('POST', '/api/v1/ambient/session/create', { encounter_id: 'e1' });
    expect(missing).toEqual({
      status: 400,
      body: { code: 400, message: expect.stringMatching(/^missing_sdp_provider_id_header: /) },
    });
    client.providerHeader = 'dr-someone-else';
    const wrong = await client.call('POST', '/api/v1/ambient/session/create', { encounter_id: 'e1' });
    expect(wrong).toEqual({
      status: 400,
      body: { code: 400, message: expect.stringMatching(/^invalid_sdp_provider_id: /) },
    });
    client.providerHeader = 'dr-single';
    expect((await client.call('POST', '/api/v1/ambient/session/create', { encounter_id: 'e1' })).status).toBe(
      201,
    );
  });

  it('do not need sdp_provider_id for bearer partners', async () => {
    const client = new ServiceClient(sandbox.url);
    await client.signIn({ ...bearer, provider_id: 'dr-bearer' });
    expect((await client.call('POST', '/api/v1/ambient/session/create', { encounter_id: 'e1' })).status).toBe(
      201,
    );
  });
});

describe('token lifetime (time-scaled)', () => {
  it('a service token stops working after its hour', async () => {
    const fast = await startSandbox({ timeScale: 0.0003, asr: 'energy' }); // 1 hour → 1.08 s
    try {
      const client = new ServiceClient(fast.url);
      await client.signIn({ ...bearer, provider_id: 'dr-expiry' });
      expect((await client.call('GET', '/api/v1/info/service-medical-form-templates')).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1_300));
      const expired = await client.call('GET', '/api/v1/info/service-medical-form-templates');
      expect(expired).toEqual({
        status: 401,
        body: { code: 401, message: 'invalid_sdp_token: token expired' },
      });
    } finally {
      await fast.close();
    }
  });
});
