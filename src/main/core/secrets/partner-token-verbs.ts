import { serviceOf } from '../../../shared/delivery-target';
import type { Policy } from '../../../shared/policy';
import type { Settings } from '../../../shared/settings';
import type { AuthManager } from '../auth';
import type { Logger } from '../ports';
import { boundSecretBox, credentialPlaces } from './bound-secrets';
import { SECRET_NAMES, type SecretBox } from './secret-box';

/**
 * The partner token as the window sees it (never its value), kept for the service address it was
 * entered for (issue 28): the contract verbs secrets.status and secrets.setPartnerToken.
 */
export function partnerTokenVerbs(deps: {
  secrets: SecretBox;
  settings: { get(): Settings };
  /** The auth manager of the service in use (it drops a service token made with the old one). */
  auth(): Promise<AuthManager>;
  /** A partner token was entered for this service (its origin) and partner. */
  onEntered?(service: string, partnerId: string): void;
  /** Throws when no token may be entered now (a locked window). */
  refuse?(): void;
}) {
  const boxFor = (service = deps.settings.get().service) =>
    boundSecretBox(deps.secrets, credentialPlaces({ ...deps.settings.get(), service }));
  /** Whether the box holds a partner token for this service (the one in use unless named). */
  const status = async (service = deps.settings.get().service) => ({
    partnerTokenStored: (await boxFor(service).get(SECRET_NAMES.partnerToken)) !== undefined,
    forService: serviceOf(service),
    persistence: deps.secrets.persistence,
    ...(deps.secrets.notice ? { notice: deps.secrets.notice } : {}),
  });
  return {
    'secrets.status': () => status(),
    'secrets.setPartnerToken': async ({
      token,
      service,
    }: {
      token: string;
      service?: Settings['service'];
    }) => {
      deps.refuse?.();
      if (!service || serviceOf(service) === serviceOf(deps.settings.get().service)) {
        await (await deps.auth()).setPartnerToken(token);
      } else {
        // Typed with a new address being saved: kept for that address, never sent to this one.
        await boxFor(service).set(SECRET_NAMES.partnerToken, token.trim());
      }
      if (token.trim())
        deps.onEntered?.(serviceOf(service ?? deps.settings.get().service), deps.settings.get().partnerId);
      return status(service);
    },
  };
}

/**
 * A partner token set by the policy goes into the secret box like a typed one (replacing another),
 * bound to the service the policy names (else the one in use: IT gave it for that service), and
 * out of the policy object at once: nothing else holds it from then on.
 */
export async function storePolicyPartnerToken(
  policy: Policy,
  secrets: SecretBox,
  settings: Settings,
  log: Logger,
): Promise<void> {
  const token = policy.partnerToken;
  if (token === undefined) return;
  delete policy.partnerToken;
  const service = policy.serviceUrl ? { kind: 'url' as const, baseUrl: policy.serviceUrl } : settings.service;
  const box = boundSecretBox(secrets, credentialPlaces({ ...settings, service }));
  try {
    if ((await box.get(SECRET_NAMES.partnerToken)) === token) return;
    await box.set(SECRET_NAMES.partnerToken, token);
    log.info('policy: the partner token was stored');
  } catch (error) {
    // Sign-in then says the partner token is missing, which is where the clinician looks.
    log.error('policy: the partner token could not be stored', { error: (error as Error).message });
  }
}
