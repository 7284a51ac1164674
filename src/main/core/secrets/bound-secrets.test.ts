import { describe, expect, it } from 'vitest';
import { silentLogger } from '../ports';
import { bindLegacySecrets, boundSecretBox, credentialPlaces } from './bound-secrets';
import { createMemorySecretBox, SECRET_NAMES } from './secret-box';

const CLINIC = {
  service: { kind: 'url' as const, baseUrl: 'https://scribe.example.org/v1' },
  oidcIssuer: '',
  oidcClientId: '',
};
const OTHER = { ...CLINIC, service: { kind: 'url' as const, baseUrl: 'https://scribe.attacker.example' } };

describe('credentials bound to where they were entered', () => {
  it('a partner token stored for one service address is not there for another, and is for the first again', async () => {
    const box = createMemorySecretBox();
    await boundSecretBox(box, credentialPlaces(CLINIC)).set(
      SECRET_NAMES.partnerToken,
      'clinic-partner-token',
    );
    expect(await boundSecretBox(box, credentialPlaces(OTHER)).get(SECRET_NAMES.partnerToken)).toBeUndefined();
    // The same origin with another path or a trailing slash is the same service.
    const samePlace = {
      ...CLINIC,
      service: { kind: 'url' as const, baseUrl: 'https://scribe.example.org/' },
    };
    expect(await boundSecretBox(box, credentialPlaces(samePlace)).get(SECRET_NAMES.partnerToken)).toBe(
      'clinic-partner-token',
    );
    // Neither the demo nor another port of the same host is that service.
    const demo = { ...CLINIC, service: { kind: 'builtin-sandbox' as const } };
    expect(await boundSecretBox(box, credentialPlaces(demo)).get(SECRET_NAMES.partnerToken)).toBeUndefined();
    const port = { ...CLINIC, service: { kind: 'url' as const, baseUrl: 'https://scribe.example.org:8443' } };
    expect(await boundSecretBox(box, credentialPlaces(port)).get(SECRET_NAMES.partnerToken)).toBeUndefined();
  });

  it('a refresh token belongs to its identity provider and client as well as the service', async () => {
    const box = createMemorySecretBox();
    const standard = { ...CLINIC, oidcIssuer: 'https://login.example.org', oidcClientId: 'scribe' };
    await boundSecretBox(box, credentialPlaces(standard)).set(
      SECRET_NAMES.oidcRefreshToken,
      'refresh-token-1',
    );
    const otherIssuer = { ...standard, oidcIssuer: 'https://login.attacker.example' };
    expect(
      await boundSecretBox(box, credentialPlaces(otherIssuer)).get(SECRET_NAMES.oidcRefreshToken),
    ).toBeUndefined();
    expect(await boundSecretBox(box, credentialPlaces(standard)).get(SECRET_NAMES.oidcRefreshToken)).toBe(
      'refresh-token-1',
    );
  });

  it('a token stored before binding is bound once to the service in use at the upgrade, and nowhere else', async () => {
    const box = createMemorySecretBox();
    await box.set(SECRET_NAMES.partnerToken, 'token-from-an-older-version');
    // Unbound, it is nobody's: no place reads it.
    expect(
      await boundSecretBox(box, credentialPlaces(CLINIC)).get(SECRET_NAMES.partnerToken),
    ).toBeUndefined();
    await bindLegacySecrets(box, credentialPlaces(CLINIC), silentLogger);
    expect(await boundSecretBox(box, credentialPlaces(CLINIC)).get(SECRET_NAMES.partnerToken)).toBe(
      'token-from-an-older-version',
    );
    // A second start does not bind it again somewhere else.
    await bindLegacySecrets(box, credentialPlaces(OTHER), silentLogger);
    expect(await boundSecretBox(box, credentialPlaces(OTHER)).get(SECRET_NAMES.partnerToken)).toBeUndefined();
    expect(await boundSecretBox(box, credentialPlaces(CLINIC)).get(SECRET_NAMES.partnerToken)).toBe(
      'token-from-an-older-version',
    );
  });

  it('other secrets (the spool key) pass through unbound', async () => {
    const box = createMemorySecretBox();
    await boundSecretBox(box, credentialPlaces(CLINIC)).set('spool-key', 'abc');
    expect(await box.get('spool-key')).toBe('abc');
    expect(await boundSecretBox(box, credentialPlaces(OTHER)).get('spool-key')).toBe('abc');
  });
});
