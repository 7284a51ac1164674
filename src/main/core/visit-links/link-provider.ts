import type { AuthModel } from '../../../shared/settings';

/**
 * What a visit link's `provider_id` may do (issue 28). A link comes from anywhere (any web page or
 * e-mail can fire one), so it carries a visit, never an identity: its provider is only checked
 * against who the app acts as. The same provider: the link is used. Another: refused with one
 * sentence and nothing changed — unless the organisation's policy lets links switch providers
 * (bearer and Single Auth Token partners, whose provider is a free-text ID), and then only once
 * the clinician confirms in the window. A standard partner's provider is whoever signed in at the
 * identity provider: a link can only be checked against it (SMART on FHIR's EHR launch: identity
 * comes from the authorization server, never from the launch URL).
 */
export type ProviderCheck =
  | { kind: 'same' }
  | { kind: 'switch'; from: string; to: string }
  | { kind: 'refused'; rule: string; reason: string };

export interface LinkProviderFacts {
  authModel: AuthModel;
  /** Bearer and Single Auth Token: the provider the app signs in as now ('' when none is set up). */
  actingProvider: string;
  /** Standard: who signed in at the identity provider, when someone has. */
  signedInProvider: string | undefined;
  /** The organisation's policy locks the provider ID. */
  providerLocked: boolean;
  /** The organisation's policy lets a link switch the provider, after the clinician confirms. */
  switchAllowed: boolean;
}

export function checkLinkProvider(providerId: string, facts: LinkProviderFacts): ProviderCheck {
  if (facts.authModel === 'standard') {
    const signedIn = facts.signedInProvider;
    // Nobody signed in yet: whoever signs in at the identity provider is the provider.
    if (signedIn === undefined || signedIn === providerId) return { kind: 'same' };
    return refused(providerId, `you are signed in as ${signedIn}`);
  }
  const acting = facts.actingProvider;
  if (acting === providerId) return { kind: 'same' };
  if (facts.providerLocked)
    return refused(providerId, `your organisation signs this computer in as ${acting || 'another provider'}`);
  if (facts.switchAllowed) return { kind: 'switch', from: acting, to: providerId };
  return refused(
    providerId,
    acting ? `you are signed in as ${acting}` : 'no provider is set up on this computer',
  );
}

function refused(providerId: string, who: string): ProviderCheck {
  return {
    kind: 'refused',
    rule: `is for ${providerId}, but ${who}`,
    reason: `This link is for ${providerId}; ${who}. Nothing was changed.`,
  };
}
