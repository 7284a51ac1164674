import type { DeliveryTarget } from '../../../shared/delivery-target';
import type { Settings } from '../../../shared/settings';
import type { AuthStatus as ContractAuthStatus } from '../../../shared/contract';
import { createAuthManager, type AuthManager } from '../auth';
import { rememberingSecretBox, type SecretValues } from '../logging/secret-values';
import { boundSecretBox, credentialPlaces } from '../secrets/bound-secrets';
import type { Clock, Logger } from '../ports';
import { SECRET_NAMES, type SecretBox } from '../secrets/secret-box';
import { startNotificationReceiver } from '../notifications/receiver-server';
import { createRestClient, type RestClient } from '../service/rest-client';
import type { ServiceConnection, createServiceLocator } from '../service/service-locator';

/** One signed-in connection to the service: the auth manager (a TokenSource) and the REST client. */
export interface ServiceSession {
  connection: ServiceConnection;
  auth: AuthManager;
  rest: RestClient;
  /** The notification receiver on 127.0.0.1, when on and the service can be told about it. */
  receiver?: { url: string; close(): Promise<void> };
}

export interface ServiceSessionsDeps {
  locator: ReturnType<typeof createServiceLocator>;
  secrets: SecretBox;
  /** Tokens the auth manager gets and the webhook secret are added here, for the log scrubber. */
  secretValues: SecretValues;
  clock: Clock;
  log: Logger;
  /** Shows a URL in the system browser (Electron), or asks the renderer to open a tab (browser mode). */
  openExternal(url: string): Promise<void>;
  onAuthChange(status: ContractAuthStatus): void;
  /** A signed notification said this session is done (or failed): check it now. */
  onNotification(sessionId: string): void;
}

/** Settings that decide which service and which identity; any change means a new session. */
const IDENTITY_KEYS = [
  'service',
  'partnerId',
  'authModel',
  'providerId',
  'oidcIssuer',
  'oidcClientId',
  'notificationReceiver',
] as const;

/**
 * Keeps the service session that matches the current settings, making a new one (and disposing
 * the old) when the service or the identity changes.
 */
export function createServiceSessions(deps: ServiceSessionsDeps) {
  let current: { key: string; session: Promise<ServiceSession> } | undefined;

  async function open(settings: Settings): Promise<ServiceSession> {
    const connection = await deps.locator.resolve(settings);
    deps.secretValues.add(connection.oidc?.clientSecret);
    // The partner and refresh tokens this session may use are those stored for this service (and
    // identity provider): one entered for another address is never sent here (bound-secrets.ts).
    const secrets = rememberingSecretBox(
      boundSecretBox(deps.secrets, credentialPlaces(settings)),
      deps.secretValues,
    );
    const auth = createAuthManager({
      endpoint: connection.endpoint,
      partnerId: connection.partnerId,
      authModel: connection.authModel,
      providerId: connection.providerId,
      profile: {
        name: connection.profile.name,
        orgId: connection.profile.orgId,
        specialty: connection.profile.specialty,
      },
      ...(connection.oidc ? { oidc: connection.oidc } : {}),
      secrets: connection.builtinPartnerToken
        ? withDemoToken(secrets, connection.builtinPartnerToken)
        : secrets,
      secretValues: deps.secretValues,
      clock: deps.clock,
      log: deps.log,
      openExternal: deps.openExternal,
    });
    auth.onChange(() => deps.onAuthChange(toContract(auth, connection)));
    const rest = createRestClient({
      endpoint: connection.endpoint,
      tokens: auth,
      clock: deps.clock,
      log: deps.log,
    });
    const receiver =
      settings.notificationReceiver && connection.webhook
        ? await openReceiver(connection.webhook)
        : undefined;
    return { connection, auth, rest, ...(receiver ? { receiver } : {}) };
  }

  /**
   * The service's notifications cut the wait for results short; polling stays the fallback. The
   * receiver (the sandbox's reusable module) checks the signature and age and drops duplicates.
   */
  async function openReceiver(webhook: NonNullable<ServiceConnection['webhook']>) {
    deps.secretValues.add(webhook.secret);
    const running = await startNotificationReceiver({
      secret: webhook.secret,
      onNotification: (notification) => deps.onNotification(notification.session_id),
    });
    webhook.setNotificationUrl(running.url);
    return {
      url: running.url,
      close: async () => {
        webhook.setNotificationUrl(undefined);
        await running.close();
      },
    };
  }

  /** The session for these settings (created on first use). */
  function get(settings: Settings): Promise<ServiceSession> {
    const key = JSON.stringify(IDENTITY_KEYS.map((k) => settings[k]));
    if (current?.key !== key) {
      dispose();
      current = { key, session: open(settings) };
    }
    return current.session;
  }

  function dispose(): void {
    void current?.session.then(
      (old) => {
        old.auth.dispose();
        void old.receiver?.close();
      },
      () => undefined,
    );
    current = undefined;
  }

  return {
    get,
    async status(settings: Settings): Promise<ContractAuthStatus> {
      const session = await get(settings);
      return toContract(session.auth, session.connection);
    },
    dispose,
  };
}

/**
 * The built-in sandbox signs in with its own demo partner token, whatever is stored: a token
 * stored for a real service (before switching to the demo) is not the sandbox's and would only be
 * refused. The stored one is left alone for when the real service is chosen again.
 */
function withDemoToken(secrets: SecretBox, demoToken: string): SecretBox {
  return {
    persistence: secrets.persistence,
    ...(secrets.notice !== undefined ? { notice: secrets.notice } : {}),
    get: async (name) => (name === SECRET_NAMES.partnerToken ? demoToken : secrets.get(name)),
    set: (name, value) => secrets.set(name, value),
    delete: (name) => secrets.delete(name),
  };
}

export function toContract(auth: AuthManager, connection: ServiceConnection): ContractAuthStatus {
  const status = auth.status();
  return {
    model: status.model,
    signedIn: status.signedIn,
    signingIn: status.phase === 'signing-in' || status.phase === 'waiting-for-browser',
    ...(status.providerId ? { providerId: status.providerId } : {}),
    ...(status.validUntil !== undefined ? { validUntil: status.validUntil } : {}),
    ...(status.problem ? { problem: status.problem } : {}),
    demo: connection.demo,
  };
}

/**
 * Where a visit recorded in this session belongs (issues 28 and 39): this service, partner,
 * provider and sign-in model. A standard partner's provider is who signed in at the identity
 * provider, so ask once signed in.
 */
export function deliveryTargetOf(session: Pick<ServiceSession, 'connection' | 'auth'>): DeliveryTarget {
  const { connection, auth } = session;
  return {
    service: connection.service,
    partnerId: connection.partnerId,
    providerId:
      connection.authModel === 'standard' ? (auth.status().providerId ?? '') : connection.providerId,
    model: connection.authModel,
  };
}
