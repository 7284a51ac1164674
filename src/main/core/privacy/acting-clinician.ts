import type { AuthStatus } from '../../../shared/contract';
import { serviceOf, type DeliveryTarget } from '../../../shared/delivery-target';
import type { Settings } from '../../../shared/settings';
import { configuredProviderId, connectionPartnerId } from '../service/service-locator';
import type { LinkProviderFacts } from '../visit-links/link-provider';
import { createSignOutGate } from './sign-out-gate';

/**
 * Who the app acts for now (issues 28 and 29), in one place: the stored settings, with a provider
 * a visit link switched to after the clinician confirmed it (never stored; it ends at sign-out or
 * a change of the service settings), the newest sign-in status, and whether the clinician signed
 * out (then nothing signs in by itself until they press Sign in).
 */
export function createActingClinician(settings: {
  get(): Settings;
  readonly locked: readonly (keyof Settings)[];
}) {
  let linkProvider: string | undefined;
  let authNow: AuthStatus | undefined;
  const gate = createSignOutGate();

  const acting = (): Settings =>
    linkProvider === undefined ? settings.get() : { ...settings.get(), providerId: linkProvider };
  /**
   * Whose provider ID the window's visits are: signed in, who the service knows; before that, whom
   * this computer signs in as (bearer and Single Auth Token); a standard partner's clinician is
   * unknown until the IdP says.
   */
  const visitsProviderId = (): string =>
    authNow?.signedIn && authNow.providerId !== undefined
      ? authNow.providerId
      : acting().authModel === 'standard'
        ? ''
        : configuredProviderId(acting());

  return {
    /** The settings the app acts on. */
    acting,
    gate,
    /** A visit link's provider, confirmed by the clinician where the policy allows it. */
    switchTo(providerId: string): void {
      linkProvider = providerId;
    },
    /** Sign-out, or the service settings changed by hand: the settings' provider again. */
    endSwitch(options: { forgetStatus?: boolean } = {}): void {
      linkProvider = undefined;
      if (options.forgetStatus) authNow = undefined;
    },
    /** A new sign-in status; true when it is another clinician, or signed in or out. */
    observe(status: AuthStatus): boolean {
      const before = `${authNow?.signedIn} ${authNow?.providerId}`;
      authNow = status;
      return `${status.signedIn} ${status.providerId}` !== before;
    },
    /** The status as the window gets it: it says when the clinician signed out. */
    shown: (status: AuthStatus): AuthStatus =>
      gate.signedOut() && !status.signedIn ? { ...status, signedOutByClinician: true } : status,
    /**
     * Whose visits the window may see (issue 39): the service, partner, provider and sign-in model
     * a visit recorded now would be delivered to (service-session.ts, deliveryTargetOf). The
     * built-in demo has a service of its own, so it never sees a real service's visits, nor a real
     * service the demo's, whatever provider ID each is given.
     */
    visitsOwner: (): DeliveryTarget => {
      const settingsNow = acting();
      return {
        service: serviceOf(settingsNow.service),
        partnerId: connectionPartnerId(settingsNow),
        providerId: visitsProviderId(),
        model: settingsNow.authModel,
      };
    },
    /** The clinician the window acts for now, for its lock (privacy/window-privacy.ts). */
    here: () => {
      const settingsNow = acting();
      const standard = settingsNow.authModel === 'standard';
      return {
        target: {
          service: serviceOf(settingsNow.service),
          partnerId: settingsNow.partnerId,
          // A standard partner's clinician is whom the IdP said last (still known when the
          // service token has ended, so a lock then is still theirs).
          providerId: standard ? (authNow?.providerId ?? '') : configuredProviderId(settingsNow),
          model: settingsNow.authModel,
        },
        model: settingsNow.authModel,
        demo: settingsNow.service.kind === 'builtin-sandbox',
        signedIn: authNow?.signedIn === true,
      };
    },
    /** What a visit link's provider_id is checked against (visit-links/link-provider.ts). */
    linkFacts: (switchAllowed: boolean): LinkProviderFacts => ({
      authModel: acting().authModel,
      // What the service session resolved (the demo's own provider when none is set).
      actingProvider: authNow?.providerId ?? configuredProviderId(acting()),
      signedInProvider: authNow?.signedIn ? authNow.providerId : undefined,
      providerLocked: settings.locked.includes('providerId'),
      switchAllowed,
    }),
  };
}
