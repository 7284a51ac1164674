import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { serviceOf } from '../../../shared/delivery-target';
import type { Settings } from '../../../shared/settings';
import type { Sandbox } from '../../../../sandbox/server';
import type { Logger } from '../ports';
import { demoAtRestCipher, removeDemoSessionFiles } from './demo-at-rest';
import type { ServiceEndpoint } from './token-source';

/** Everything the auth manager and the clients need to reach one partner's service. */
export interface ServiceConnection {
  endpoint: ServiceEndpoint;
  /**
   * Which service this is, as credentials and spooled visits are bound to it (delivery-target.ts):
   * the address's origin, or the built-in demo's fixed name (its port changes every launch).
   */
  service: string;
  partnerId: string;
  authModel: Settings['authModel'];
  providerId: string;
  profile: { name: string; orgId: string; specialty: string };
  oidc?: { issuer: string; clientId: string; clientSecret?: string };
  /** The built-in sandbox knows its own demo partner tokens, so the demo needs no account. */
  builtinPartnerToken?: string;
  /** True while the built-in sandbox is the service: every screen says notes are simulated. */
  demo: boolean;
  /**
   * Where notifications can be received. A real service's notification URL and webhook secret are
   * set at onboarding (spec: "configured during onboarding"), so only the built-in sandbox, which
   * the app itself configures, offers this today.
   */
  webhook?: { secret: string; setNotificationUrl(url: string | undefined): void };
}

// The sandbox's default partners (sandbox/partners.default.json), one per sign-in model.
const DEMO_PARTNERS: Record<Settings['authModel'], string> = {
  standard: 'demo-standard',
  bearer: 'demo-bearer',
  single_auth_token: 'demo-single-auth',
};

/** The demo's provider when none is set (its partners take any provider ID). */
export const DEMO_PROVIDER_ID = 'demo-clinician';

/**
 * Whom a bearer or Single Auth Token partner signs in as under these settings (the demo's own
 * provider when none is set), known before any sign-in. A standard partner's is the IdP's to say.
 */
export function configuredProviderId(settings: Pick<Settings, 'service' | 'providerId'>): string {
  return settings.providerId || (settings.service.kind === 'builtin-sandbox' ? DEMO_PROVIDER_ID : '');
}

/**
 * The partner a connection under these settings signs in as: the demo's own partner for the
 * chosen model, whatever partner ID is set (that one is kept for the real service).
 */
export function connectionPartnerId(settings: Pick<Settings, 'service' | 'partnerId' | 'authModel'>): string {
  return settings.service.kind === 'builtin-sandbox' ? DEMO_PARTNERS[settings.authModel] : settings.partnerId;
}

export interface ServiceLocatorOptions {
  dataDirectory: string;
  log: Logger;
  /** The spool key: the demo seals its files with a key derived from it (demo-at-rest.ts). */
  spoolKey: () => Promise<Uint8Array>;
}

/**
 * Turns settings into a service connection. "Built-in sandbox" starts the sandbox in this process
 * on a free loopback port (once), with its data under the app's data directory, sealed.
 */
export function createServiceLocator(options: ServiceLocatorOptions) {
  let sandbox: Promise<Sandbox> | undefined;
  // The demo IdP's client secret for this launch (demo sign-in for the standard model).
  const idpClientSecret = randomBytes(32).toString('base64url');
  const demoSessionsDir = join(options.dataDirectory, 'sandbox', 'sessions');

  const builtin = () =>
    (sandbox ??= startBuiltinSandbox(options, idpClientSecret).catch((error: unknown) => {
      // A failed start is not remembered: the next resolve() tries again.
      sandbox = undefined;
      throw error;
    }));

  return {
    async resolve(settings: Settings): Promise<ServiceConnection> {
      const profile = {
        name: settings.providerName || 'Demo Clinician',
        orgId: settings.providerOrgId || 'demo-clinic',
        specialty: settings.providerSpecialty,
      };
      if (settings.service.kind === 'url') {
        return {
          endpoint: { baseUrl: settings.service.baseUrl },
          service: serviceOf(settings.service),
          partnerId: settings.partnerId,
          authModel: settings.authModel,
          providerId: settings.providerId,
          profile,
          ...(settings.authModel === 'standard'
            ? { oidc: { issuer: settings.oidcIssuer, clientId: settings.oidcClientId } }
            : {}),
          demo: false,
        };
      }
      const running = await builtin();
      // Its demo partner for the chosen model, whatever partner ID is set (that one is kept for the
      // real service), as the sandbox's own IdP stands in for the configured one.
      const partnerId = connectionPartnerId(settings);
      const partner = running.partners.get(partnerId);
      return {
        endpoint: { baseUrl: running.url },
        service: serviceOf(settings.service),
        partnerId,
        authModel: partner?.auth_model ?? settings.authModel,
        providerId: configuredProviderId(settings),
        profile,
        ...(partner?.auth_model === 'standard'
          ? { oidc: { issuer: running.idpIssuer, clientId: partner.audience, clientSecret: idpClientSecret } }
          : {}),
        ...(partner && 'partner_token' in partner ? { builtinPartnerToken: partner.partner_token } : {}),
        ...(partner?.webhook_secret
          ? {
              webhook: {
                secret: partner.webhook_secret,
                // The in-process sandbox reads the partner's notification URL at delivery time.
                setNotificationUrl: (url: string | undefined) => {
                  if (url) partner.notification_url = url;
                  else delete partner.notification_url;
                },
              },
            }
          : {}),
        demo: true,
      };
    },
    /**
     * Deletes the demo's sessions (record, audio, note) of every visit `keep` does not name: the
     * demo keeps a visit no longer than the app keeps its audio. Through the demo when it runs;
     * on disk when it does not (before it starts: call this first). Returns the sessions that went.
     */
    async forgetDemoSessions(keep: (sessionId: string) => boolean): Promise<string[]> {
      if (!sandbox) return removeDemoSessionFiles(demoSessionsDir, keep);
      const running = await sandbox.catch(() => undefined);
      return running ? await running.forgetSessions((id) => !keep(id)) : [];
    },
    /** Stops the built-in sandbox if it was started. */
    async close(): Promise<void> {
      if (sandbox) await (await sandbox).close();
    },
  };
}

/**
 * The demo service is the test emulator (Fastify, an OpenID Connect provider, a recognizer): it is
 * loaded only when the demo is chosen, so an app pointed at a real service never loads any of it
 * (its own chunk in the build; test/main-bundle.test.ts checks the static import graph). Its test
 * control API stays off: nothing on 127.0.0.1 can read a visit or inject a fault through the app.
 */
async function startBuiltinSandbox(
  options: ServiceLocatorOptions,
  idpClientSecret: string,
): Promise<Sandbox> {
  const [{ startSandbox }, { DEFAULT_PARTNERS }] = await Promise.all([
    import('../../../../sandbox/server'),
    import('../../../../sandbox/partners'),
  ]);
  // The sample partners' tokens and webhook secrets are published (partners.default.json): the
  // demo makes its own for each launch, known only to this process, so nothing else on the
  // computer can sign in to it or forge a notification to the app.
  const secret = () => randomBytes(32).toString('base64url');
  const partners = DEFAULT_PARTNERS.map((partner) => ({
    ...partner,
    ...('partner_token' in partner ? { partner_token: secret() } : {}),
    ...(partner.webhook_secret ? { webhook_secret: secret() } : {}),
  }));
  return startSandbox({
    dataDir: join(options.dataDirectory, 'sandbox'),
    partners,
    asr: 'auto',
    controlApi: false,
    onlyOwnHost: true,
    // Its IdP's client is confidential: a local program that walks its sign-in page (it asks for
    // no password) cannot redeem the code, so it cannot sign in as a clinician.
    idpClientSecret,
    // Sessions, audio, notes and its keys sealed: nothing of a visit in the clear on disk.
    atRest: demoAtRestCipher(await options.spoolKey()),
    // It runs in this process and writes to the app's log: its lines say they are the demo's.
    log: prefixed(options.log, 'built-in sandbox: '),
  });
}

function prefixed(log: Logger, prefix: string): Logger {
  return {
    info: (message, fields) => log.info(prefix + message, fields),
    warn: (message, fields) => log.warn(prefix + message, fields),
    error: (message, fields) => log.error(prefix + message, fields),
  };
}
