import { createServer } from 'node:net';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID } from './constants';
import { refreshIdToken, signInHeadless } from './headless-sign-in';
import { startIdpTestServer, type IdpTestServer } from './test-support';
import { verifyIdToken } from './verify-id-token';

/** A port that was free a moment ago, to ask the loopback listener for a specific one. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('signing in to the sandbox IdP like the desktop app', () => {
  let server: IdpTestServer;
  const expected = () => ({ jwksUrl: server.jwksUrl, issuer: server.issuer, audience: DEFAULT_CLIENT_ID });

  beforeAll(async () => {
    server = await startIdpTestServer();
  });
  afterAll(() => server.close());

  it('returns an ID token the service accepts, with the username as sub and the display name', async () => {
    const result = await signInHeadless({
      issuer: server.issuer,
      clientId: DEFAULT_CLIENT_ID,
      username: 'dr-demo',
      name: 'Dr. Dana Demo',
    });
    expect(result.sub).toBe('dr-demo');
    expect(result.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    await expect(verifyIdToken(result.idToken, expected())).resolves.toEqual({
      sub: 'dr-demo',
      name: 'Dr. Dana Demo',
    });
  });

  it('returns a refresh token that renews the ID token, rotating the refresh token', async () => {
    const first = await signInHeadless({
      issuer: server.issuer,
      clientId: DEFAULT_CLIENT_ID,
      username: 'dr-refresh',
      name: 'Dr. Rae Fresh',
    });
    expect(first.refreshToken).toBeTruthy();

    const renewed = await refreshIdToken({
      issuer: server.issuer,
      clientId: DEFAULT_CLIENT_ID,
      refreshToken: first.refreshToken!,
    });
    expect(renewed.idToken).not.toBe(first.idToken);
    // The display name typed at sign-in is still released without the browser.
    await expect(verifyIdToken(renewed.idToken, expected())).resolves.toEqual({
      sub: 'dr-refresh',
      name: 'Dr. Rae Fresh',
    });
    // Public client: each refresh hands out a new refresh token and consumes the old one.
    expect(renewed.refreshToken).toBeTruthy();
    expect(renewed.refreshToken).not.toBe(first.refreshToken);
    await expect(
      refreshIdToken({
        issuer: server.issuer,
        clientId: DEFAULT_CLIENT_ID,
        refreshToken: first.refreshToken!,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('issues no refresh token when offline_access is not requested', async () => {
    const result = await signInHeadless({
      issuer: server.issuer,
      clientId: DEFAULT_CLIENT_ID,
      username: 'dr-online',
      scope: 'openid profile',
    });
    expect(result.refreshToken).toBeUndefined();
  });

  it('accepts a loopback redirect on whatever port the app listens on', async () => {
    const port = await freePort();
    const result = await signInHeadless({
      issuer: server.issuer,
      clientId: DEFAULT_CLIENT_ID,
      username: 'dr-port',
      redirectPort: port,
    });
    expect(result.redirectUri).toBe(`http://127.0.0.1:${port}/callback`);
    await expect(verifyIdToken(result.idToken, expected())).resolves.toEqual({ sub: 'dr-port' });
  });

  it('says why when the IdP refuses the sign-in', async () => {
    await expect(
      signInHeadless({ issuer: server.issuer, clientId: 'not-registered', username: 'dr-demo' }),
    ).rejects.toThrow(/HTTP 400: .*invalid_client/);
  });
});

describe('an IdP with a short ID token lifetime', () => {
  it('issues ID tokens that expire after the configured time', async () => {
    const server = await startIdpTestServer({ idTokenTtlSeconds: 120 });
    try {
      const { idToken } = await signInHeadless({
        issuer: server.issuer,
        clientId: DEFAULT_CLIENT_ID,
        username: 'dr-ttl',
      });
      const { iat, exp, aud } = decodeJwt(idToken);
      expect(exp! - iat!).toBe(120);
      expect(aud).toBe(DEFAULT_CLIENT_ID);
    } finally {
      await server.close();
    }
  });
});
