import type { JsonFile } from '../persistence';

export interface ProviderProfile {
  provider_id: string;
  provider_name: string;
  provider_org_id: string;
  provider_specialty: string;
}

interface StoredUser {
  profile: ProviderProfile;
  /** Partners this provider is registered with. */
  partners: string[];
}

export type RegisterOutcome = 'created' | 'linked' | 'already_linked';

/**
 * Providers known to the service. A provider is one user across partners: Register creates the
 * user (201), links an existing user to another partner (201), or finds the link exists (409).
 */
export interface ProviderRegistry {
  register(partnerId: string, profile: ProviderProfile): Promise<RegisterOutcome>;
  isRegistered(partnerId: string, providerId: string): boolean;
  list(): { provider_id: string; partners: string[] }[];
}

export async function createProviderRegistry(
  file: JsonFile<Record<string, StoredUser>>,
): Promise<ProviderRegistry> {
  const users = new Map(Object.entries((await file.read()) ?? {}));
  const save = () => file.write(Object.fromEntries(users));
  return {
    async register(partnerId, profile) {
      const existing = users.get(profile.provider_id);
      // protocol: Authentication (Register: 201 new user; 201 newly linked; 409 already linked)
      if (existing?.partners.includes(partnerId)) return 'already_linked';
      if (existing) {
        existing.partners.push(partnerId);
        await save();
        return 'linked';
      }
      users.set(profile.provider_id, { profile, partners: [partnerId] });
      await save();
      return 'created';
    },
    isRegistered: (partnerId, providerId) => users.get(providerId)?.partners.includes(partnerId) ?? false,
    list: () =>
      [...users.values()].map((u) => ({ provider_id: u.profile.provider_id, partners: [...u.partners] })),
  };
}
