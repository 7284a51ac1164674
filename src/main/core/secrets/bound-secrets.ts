import { serviceOf } from '../../../shared/delivery-target';
import type { Settings } from '../../../shared/settings';
import type { Logger } from '../ports';
import { SECRET_NAMES, type SecretBox } from './secret-box';

/**
 * Credentials bound to where they were entered (issue 28). The partner token is the clinic's key
 * to the service: it was entered for one service address, and a changed address (Settings, a
 * policy the user can write) must never receive it — with it and a free-text provider ID, that
 * host could sign in as any provider of the clinic. The OpenID Connect refresh token likewise
 * belongs to the identity provider and client it was issued by. Each is stored with its place;
 * asked for from another place, the box has none, so the window asks for the token again.
 */
export type CredentialPlaces = Partial<Record<string, string>>;

/** Where each bound secret may be used under these settings. */
export function credentialPlaces(settings: Pick<Settings, 'service' | 'oidcIssuer' | 'oidcClientId'>) {
  const service = serviceOf(settings.service);
  return {
    [SECRET_NAMES.partnerToken]: service,
    // The refresh token goes to the issuer's token endpoint, for this client, for this service.
    [SECRET_NAMES.oidcRefreshToken]: `${service} ${settings.oidcIssuer} ${settings.oidcClientId}`,
  } satisfies CredentialPlaces;
}

interface BoundRecord {
  boundTo: string;
  value: string;
}

function readRecord(stored: string | undefined): BoundRecord | 'legacy' | undefined {
  if (stored === undefined) return undefined;
  try {
    const parsed = JSON.parse(stored) as Partial<BoundRecord> | null;
    if (typeof parsed?.boundTo === 'string' && typeof parsed.value === 'string')
      return { boundTo: parsed.boundTo, value: parsed.value };
  } catch {
    // A value stored before binding (a plain token).
  }
  return 'legacy';
}

/**
 * The secret box as seen from `places`: a bound name reads only a value stored for its place, and
 * writes store the place with the value. Other names pass through.
 */
export function boundSecretBox(box: SecretBox, places: CredentialPlaces): SecretBox {
  return {
    persistence: box.persistence,
    ...(box.notice !== undefined ? { notice: box.notice } : {}),
    async get(name) {
      const place = places[name];
      const stored = await box.get(name);
      if (place === undefined) return stored;
      const record = readRecord(stored);
      return typeof record === 'object' && record.boundTo === place ? record.value : undefined;
    },
    async set(name, value) {
      const place = places[name];
      await box.set(name, place === undefined ? value : JSON.stringify({ boundTo: place, value }));
    },
    delete: (name) => box.delete(name),
  };
}

/**
 * Secrets stored by a version before binding are bound once, at the first start after the
 * upgrade, to the place the settings name then (where they were entered, as far as anyone knows).
 */
export async function bindLegacySecrets(
  box: SecretBox,
  places: CredentialPlaces,
  log: Logger,
): Promise<void> {
  for (const [name, place] of Object.entries(places)) {
    if (place === undefined) continue;
    const stored = await box.get(name);
    if (readRecord(stored) !== 'legacy' || stored === undefined) continue;
    await box.set(name, JSON.stringify({ boundTo: place, value: stored }));
    log.info('secrets: bound a stored credential to its service', { secret: name });
  }
}
