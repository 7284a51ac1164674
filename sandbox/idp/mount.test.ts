import Fastify from 'fastify';
import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID } from './constants';
import { CookieJar } from './cookie-jar';
import { mountIdp } from './mount';
import { startIdpTestServer, type IdpTestServer } from './test-support';

describe('the IdP mounted at /idp of the sandbox server', () => {
  let server: IdpTestServer;

  beforeAll(async () => {
    server = await startIdpTestServer();
  });
  afterAll(() => server.close());

  /** An authorization request as the desktop app sends it; `change` adjusts one parameter. */
  async function authorize(change: Record<string, string | null> = {}): Promise<Response> {
    const params: Record<string, string | null> = {
      client_id: DEFAULT_CLIENT_ID,
      response_type: 'code',
      scope: 'openid profile offline_access',
      prompt: 'consent',
      redirect_uri: 'http://127.0.0.1:53682/callback',
      state: 'state-1',
      code_challenge: await calculatePKCECodeChallenge(randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      ...change,
    };
    const url = new URL(`${server.issuer}/auth`);
    for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
    return fetch(url, { redirect: 'manual' });
  }

  /** Where a refused request was sent back to the app, with its error parameters. */
  function redirectedError(response: Response): URL {
    expect(response.status).toBe(303);
    return new URL(response.headers.get('location')!);
  }

  it('publishes a discovery document with the /idp issuer and endpoints under it', async () => {
    const response = await fetch(`${server.issuer}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as Record<string, unknown>;
    expect(server.issuer).toBe(`${server.baseUrl}/idp`);
    expect(doc.issuer).toBe(server.issuer);
    expect(doc.authorization_endpoint).toBe(`${server.issuer}/auth`);
    expect(doc.token_endpoint).toBe(`${server.issuer}/token`);
    expect(doc.jwks_uri).toBe(server.jwksUrl);
    expect(doc.jwks_uri).toBe(`${server.issuer}/jwks`);
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    expect(doc.response_types_supported).toEqual(['code']);
    expect(doc.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'offline_access']));
  });

  it('publishes the public half of its signing key at the JWKS endpoint', async () => {
    const { keys } = (await (await fetch(server.jwksUrl)).json()) as { keys: Record<string, unknown>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(keys[0]).not.toHaveProperty('d');
  });

  it('leaves the rest of the app alone: JSON routes parse bodies, other types keep their 415', async () => {
    for (const path of ['/before', '/after']) {
      const json = await fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ encounter_id: 'E1' }),
      });
      expect(json.status).toBe(200);
      expect(await json.json()).toEqual({ received: { encounter_id: 'E1' } });
      // The IdP's form parser and catch-all parser exist only inside /idp.
      const form = await fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'a=1',
      });
      expect(form.status).toBe(415);
    }
    expect((await fetch(`${server.baseUrl}/nowhere`)).status).toBe(404);
  });

  it('hands the token endpoint its raw form body (a bad code is judged by oidc-provider, not Fastify)', async () => {
    const response = await fetch(`${server.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'not-a-code',
        client_id: DEFAULT_CLIENT_ID,
        redirect_uri: 'http://127.0.0.1:53682/callback',
        code_verifier: randomPKCECodeVerifier(),
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses an authorization request without PKCE, or with the plain method', async () => {
    const missing = redirectedError(await authorize({ code_challenge: null, code_challenge_method: null }));
    expect(missing.origin + missing.pathname).toBe('http://127.0.0.1:53682/callback');
    expect(missing.searchParams.get('error')).toBe('invalid_request');
    expect(missing.searchParams.get('error_description')).toMatch(/PKCE/);

    const plain = redirectedError(await authorize({ code_challenge_method: 'plain' }));
    expect(plain.searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses redirect URIs that are not the loopback callback, without redirecting to them', async () => {
    for (const redirectUri of [
      'http://evil.example/callback',
      'https://127.0.0.1:53682/callback',
      'http://127.0.0.1:53682/elsewhere',
      'http://localhost:53682/callback',
    ]) {
      const response = await authorize({ redirect_uri: redirectUri });
      expect(response.status, redirectUri).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toMatch(/redirect_uri/);
    }
  });

  it('accepts the loopback callback on any port, IPv4 or IPv6', async () => {
    for (const redirectUri of [
      'http://127.0.0.1:53682/callback',
      'http://127.0.0.1:1024/callback',
      'http://127.0.0.1:65000/callback',
      'http://[::1]:40000/callback',
    ]) {
      const response = await authorize({ redirect_uri: redirectUri });
      expect(response.status, redirectUri).toBe(303);
      expect(response.headers.get('location'), redirectUri).toMatch(/^\/idp\/interaction\/[\w-]+$/);
    }
  });

  it('shows a login page whose username field has a label', async () => {
    const jar = new CookieJar();
    const start = await authorize();
    jar.store(new URL(`${server.issuer}/auth`), start);
    const pageUrl = new URL(start.headers.get('location')!, server.baseUrl);
    const page = await fetch(pageUrl, { headers: { cookie: jar.header(pageUrl) ?? '' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();

    const labelFor = /<label for="([^"]+)">Username<\/label>/.exec(html)?.[1];
    expect(labelFor).toBe('username');
    expect(html).toMatch(/<input id="username" name="username"[^>]*\brequired\b/);
    expect(html).toMatch(/<label for="name">Display name/);
    expect(html).toMatch(/<input id="name" name="name"/);
    expect(html).toMatch(/<html lang="en">/);
    expect(html).toMatch(/<form method="post" action="\/idp\/interaction\/[\w-]+\/login"/);
    expect(html).not.toMatch(/type="password"/);

    // An empty username comes back with the problem announced and tied to the field.
    const action = new URL(/action="([^"]+)"/.exec(html)![1]!, server.baseUrl);
    const rejected = await fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header(action) ?? '' },
      body: 'username=&name=',
      redirect: 'manual',
    });
    expect(rejected.status).toBe(400);
    const again = await rejected.text();
    expect(again).toMatch(/aria-invalid="true"/);
    expect(again).toMatch(/aria-describedby="username-error username-hint"/);
    expect(again).toMatch(/<p class="error" id="username-error" role="alert">Enter a username/);
  });

  it('answers a stale or cookie-less login page with an explanation, not a crash', async () => {
    const response = await fetch(`${server.issuer}/interaction/unknown-uid`);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/Sign-in expired/);
  });
});

describe('mountIdp', () => {
  it('refuses an issuer that does not end in the /idp mount path', async () => {
    const app = Fastify();
    await expect(mountIdp(app, { issuer: 'http://127.0.0.1:9/oidc' })).rejects.toThrow(/must end in \/idp/);
    await app.close();
  });
});
