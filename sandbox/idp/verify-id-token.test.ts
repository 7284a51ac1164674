import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID } from './constants';
import { signInHeadless } from './headless-sign-in';
import { startIdpTestServer, type IdpTestServer } from './test-support';
import { IdTokenError, verifyIdToken } from './verify-id-token';

/**
 * A stand-in partner IdP whose keys the test holds, to sign tokens the real IdP never would
 * (expired, no sub) and tokens with keys the JWKS does not list.
 */
const PARTNER_ISSUER = 'https://idp.partner.example';
const PARTNER_AUDIENCE = 'partner-desktop-client';

async function rejection(promise: Promise<unknown>): Promise<IdTokenError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(IdTokenError);
  return error as IdTokenError;
}

describe('verifyIdToken', () => {
  let idp: IdpTestServer;
  let idToken: string;
  let partnerJwks: Server;
  let partnerJwksUrl: string;
  let partnerKey: CryptoKey;

  beforeAll(async () => {
    idp = await startIdpTestServer();
    ({ idToken } = await signInHeadless({
      issuer: idp.issuer,
      clientId: DEFAULT_CLIENT_ID,
      username: 'dr-demo',
    }));

    const pair = await generateKeyPair('ES256');
    partnerKey = pair.privateKey;
    const publicJwk = {
      ...(await exportJWK(pair.publicKey)),
      kid: 'partner-key-1',
      alg: 'ES256',
      use: 'sig',
    };
    partnerJwks = createServer((req, res) => {
      if (req.url === '/jwks') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => partnerJwks.listen(0, '127.0.0.1', resolve));
    partnerJwksUrl = `http://127.0.0.1:${(partnerJwks.address() as AddressInfo).port}/jwks`;
  });

  afterAll(async () => {
    await idp.close();
    await new Promise((resolve) => partnerJwks.close(resolve));
  });

  const fromIdp = () => ({ jwksUrl: idp.jwksUrl, issuer: idp.issuer, audience: DEFAULT_CLIENT_ID });
  const fromPartner = {
    get jwksUrl() {
      return partnerJwksUrl;
    },
    issuer: PARTNER_ISSUER,
    audience: PARTNER_AUDIENCE,
  };

  /** A partner token signed with `key` under `kid`; claims default to a valid one. */
  function partnerToken(claims: JWTPayload = {}, key: CryptoKey = partnerKey, kid = 'partner-key-1') {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      sub: 'dr-partner',
      iss: PARTNER_ISSUER,
      aud: PARTNER_AUDIENCE,
      iat: now,
      exp: now + 600,
      ...claims,
    })
      .setProtectedHeader({ alg: 'ES256', kid })
      .sign(key);
  }

  it("accepts the sandbox IdP's token and a partner's, giving sub (and name when present)", async () => {
    await expect(verifyIdToken(idToken, fromIdp())).resolves.toEqual({ sub: 'dr-demo' });
    await expect(verifyIdToken(await partnerToken({ name: 'Dr. P' }), fromPartner)).resolves.toEqual({
      sub: 'dr-partner',
      name: 'Dr. P',
    });
  });

  it('rejects a token for another audience', async () => {
    const error = await rejection(verifyIdToken(idToken, { ...fromIdp(), audience: 'some-other-client' }));
    expect(error.message).toBe('wrong audience');
    expect(error.problem).toBe('wrong_audience');
  });

  it('rejects a token from another issuer', async () => {
    const error = await rejection(
      verifyIdToken(idToken, { ...fromIdp(), issuer: 'https://elsewhere.example' }),
    );
    expect(error.message).toBe('wrong issuer');
  });

  it('rejects an expired token, beyond the clock tolerance', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await partnerToken({ iat: now - 7200, exp: now - 120 });
    const error = await rejection(verifyIdToken(expired, fromPartner));
    expect(error.message).toBe('expired');
  });

  it('rejects a token whose payload was altered after signing', async () => {
    const [header, payload, signature] = idToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as JWTPayload;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'dr-someone-else' })).toString('base64url');
    const error = await rejection(verifyIdToken(`${header}.${forged}.${signature}`, fromIdp()));
    expect(error.message).toBe('bad signature');
  });

  it('rejects a token signed by another key, whether or not it claims a listed kid', async () => {
    const { privateKey: otherKey } = await generateKeyPair('ES256');
    const sameKid = await rejection(
      verifyIdToken(await partnerToken({}, otherKey, 'partner-key-1'), fromPartner),
    );
    expect(sameKid.message).toBe('bad signature');
    const unknownKid = await rejection(
      verifyIdToken(await partnerToken({}, otherKey, 'attacker-key'), fromPartner),
    );
    expect(unknownKid.message).toBe('unknown signing key');
    // The sandbox IdP's token checked against a partner's keys is no better.
    const crossed = await rejection(
      verifyIdToken(idToken, { ...fromPartner, issuer: idp.issuer, audience: DEFAULT_CLIENT_ID }),
    );
    expect(crossed.message).toBe('unknown signing key');
  });

  it('rejects a token without sub, and a string that is not a JWT', async () => {
    const noSub = await rejection(verifyIdToken(await partnerToken({ sub: undefined }), fromPartner));
    expect(noSub.message).toBe('missing sub claim');
    const garbage = await rejection(verifyIdToken('not.a.jwt', fromPartner));
    expect(garbage.message).toBe('malformed token');
  });

  it('reports an unreachable JWKS as the key endpoint failing, not as a bad token', async () => {
    const error = await rejection(
      verifyIdToken(await partnerToken(), { ...fromPartner, jwksUrl: `${partnerJwksUrl}/missing` }),
    );
    expect(error.problem).toBe('jwks_unavailable');
  });
});
