import type { Sandbox } from '../../../../../sandbox/server';
import { DEFAULT_CLIENT_ID } from '../../../../../sandbox/idp/constants';
import { systemClock } from '../../ports';
import { createMemorySecretBox, SECRET_NAMES, type SecretBox } from '../../secrets/secret-box';
import { createAuthManager, type AuthManager, type AuthManagerOptions } from '../auth-manager';
import { captureLog } from './test-ports';

/** The sandbox's default partners (docs/protocol.md "Sandbox partners file"). */
export const DEMO = {
  bearer: { partnerId: 'demo-bearer', token: 'sandbox-bearer-partner-token' },
  singleAuth: { partnerId: 'demo-single-auth', token: 'sandbox-single-auth-partner-token' },
  standard: { partnerId: 'demo-standard', clientId: DEFAULT_CLIENT_ID },
} as const;

export const PROFILE = { name: 'Dr. Dana Demo', orgId: 'clinic-7', specialty: 'FAMILY_MEDICINE' };

let counter = 0;
/** A provider id the sandbox has never seen, so the first Login finds it unregistered. */
export function freshProviderId(prefix = 'dr'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}`;
}

export interface TestManager {
  manager: AuthManager;
  secrets: SecretBox;
  log: ReturnType<typeof captureLog>;
}

/** A manager for a shared-token partner of the sandbox, with its partner token already stored. */
export async function sharedTokenManager(
  sandbox: Sandbox,
  model: 'bearer' | 'single_auth_token',
  overrides: Partial<AuthManagerOptions> = {},
): Promise<TestManager> {
  const demo = model === 'bearer' ? DEMO.bearer : DEMO.singleAuth;
  const secrets = overrides.secrets ?? createMemorySecretBox();
  await secrets.set(SECRET_NAMES.partnerToken, demo.token);
  const log = captureLog();
  const manager = createAuthManager({
    endpoint: { baseUrl: sandbox.url },
    partnerId: demo.partnerId,
    authModel: model,
    providerId: freshProviderId(),
    profile: PROFILE,
    secrets,
    clock: systemClock,
    log,
    ...overrides,
  });
  return { manager, secrets, log };
}

export function standardManager(
  sandbox: Sandbox,
  openExternal: (url: string) => Promise<void>,
  overrides: Partial<AuthManagerOptions> = {},
): TestManager {
  const secrets = overrides.secrets ?? createMemorySecretBox();
  const log = captureLog();
  const manager = createAuthManager({
    endpoint: { baseUrl: sandbox.url },
    partnerId: DEMO.standard.partnerId,
    authModel: 'standard',
    providerId: '',
    profile: { orgId: 'clinic-7' },
    oidc: { issuer: sandbox.idpIssuer, clientId: DEMO.standard.clientId },
    openExternal,
    secrets,
    clock: systemClock,
    log,
    ...overrides,
  });
  return { manager, secrets, log };
}

/** Registers a provider the way another device of the same clinician would have. */
export async function registerDirectly(
  sandbox: Sandbox,
  body: { partner_id: string; partner_token: string; provider_id: string },
): Promise<number> {
  const response = await fetch(`${sandbox.url}/api/v1/auth/register`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      // Single Auth Token partners name the provider in this header too; others ignore it.
      sdp_provider_id: body.provider_id,
    },
    body: JSON.stringify({ ...body, provider_name: 'Dr. Elsewhere', provider_org_id: 'clinic-7' }),
  });
  return response.status;
}

export async function registeredProviders(sandbox: Sandbox): Promise<unknown[]> {
  const response = await fetch(`${sandbox.url}/__sandbox/providers`);
  return ((await response.json()) as { providers: unknown[] }).providers;
}

/** POST /__sandbox/faults (docs/protocol.md "Sandbox: test control API"). */
export async function fault(sandbox: Sandbox, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`fault ${JSON.stringify(body)} refused: ${response.status}`);
}
