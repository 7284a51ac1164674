import type { SettingsService } from '../settings-service';
import type { VisitLinkInboxDeps } from './visit-link-inbox';

/**
 * What a link's `provider_id` may do, judged on the settings: a policy that locks the provider ID
 * wins over a link that names another; bearer and Single Auth Token partners sign in as the link's
 * provider; a standard partner's provider is whoever signed in at the identity provider (the
 * service ignores provider_id), so the link's changes nothing.
 */
export function linkProviderRules(
  settings: Pick<SettingsService, 'get' | 'update' | 'locked'>,
): Pick<VisitLinkInboxDeps, 'providerRefusal' | 'useProvider'> {
  return {
    providerRefusal: (providerId) =>
      settings.locked.includes('providerId') && settings.get().providerId !== providerId
        ? 'must be the provider ID your organisation’s policy sets'
        : undefined,
    useProvider: async (providerId) => {
      const current = settings.get();
      if (current.authModel === 'standard' || current.providerId === providerId) return;
      await settings.update({ providerId });
    },
  };
}
