import type { AppCore } from '../../src/main/core/app-core';
import type { VerbName } from '../../src/shared/contract';

/** The sandbox's default bearer partner (sandbox/partners.default.json). */
export const SANDBOX_BEARER_TOKEN = 'sandbox-bearer-partner-token';

/** Calls a verb through the core's router, as both transports do; a refusal throws its sentence. */
export async function callVerb<T = Record<string, unknown>>(
  core: AppCore,
  verb: VerbName,
  payload?: unknown,
): Promise<T> {
  const result = await core.router.dispatch(verb, payload);
  if (!result.ok) throw new Error(`${verb}: ${result.error.message}`);
  return result.value as T;
}

/** What a call answers through the core's router: its refusal's sentence, or `answered`. */
export async function whatCoreSays(core: AppCore, verb: VerbName, payload?: unknown): Promise<string> {
  const result = await core.router.dispatch(verb, payload);
  return result.ok ? 'answered' : result.error.message;
}

/**
 * Points the core at a sandbox (or any URL) as a real service, signed in as the sandbox's bearer
 * partner with this provider; `settings` adds or overrides settings.
 */
export async function useBearerPartner(
  core: AppCore,
  baseUrl: string,
  providerId: string,
  settings: Record<string, unknown> = {},
): Promise<void> {
  await callVerb(core, 'settings.set', {
    service: { kind: 'url', baseUrl },
    partnerId: 'demo-bearer',
    authModel: 'bearer',
    providerId,
    providerName: `Provider ${providerId}`,
    providerOrgId: 'clinic-test',
    ...settings,
  });
  await callVerb(core, 'secrets.setPartnerToken', { token: SANDBOX_BEARER_TOKEN });
}
