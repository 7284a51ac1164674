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

/** The PIN useBearerPartner chooses for its clinician. */
export const TEST_PIN = '2468';

/**
 * Points the core at a sandbox (or any URL) as a real service, signed in as the sandbox's bearer
 * partner with this provider; `settings` adds or overrides settings. A clinician new to this core
 * chooses TEST_PIN, as the window asks before anything else (the contract refuses the rest until
 * then), unless `choosePin` is false: a test of the PIN's own steps.
 */
export async function useBearerPartner(
  core: AppCore,
  baseUrl: string,
  providerId: string,
  settings: Record<string, unknown> = {},
  { choosePin = true }: { choosePin?: boolean } = {},
): Promise<void> {
  if (choosePin) await unlockWithTestPin(core);
  await callVerb(core, 'settings.set', {
    service: { kind: 'url', baseUrl },
    partnerId: 'demo-bearer',
    authModel: 'bearer',
    providerId,
    providerName: `Provider ${providerId}`,
    providerOrgId: 'clinic-test',
    ...settings,
  });
  // A clinician with a PIN here: the window locks for them as the provider is set.
  if (choosePin) await unlockWithTestPin(core);
  await callVerb(core, 'secrets.setPartnerToken', { token: SANDBOX_BEARER_TOKEN });
  if (choosePin) await signInWithTestPin(core);
}

/**
 * Signs the core's clinician in as the window would, and gets past the PIN step with TEST_PIN:
 * unlocks a window locked for a PIN, chooses it where the clinician has none yet. Where the service
 * cannot be reached, the sign-in waits for the first call to it, as it does in the app.
 */
export async function signInWithTestPin(core: AppCore): Promise<void> {
  await unlockWithTestPin(core);
  if (!(await core.router.dispatch('auth.signIn', undefined)).ok) return;
  await unlockWithTestPin(core);
  await chooseTestPin(core);
}

/** Chooses TEST_PIN where the window would ask a signed-in clinician for their first PIN. */
export async function chooseTestPin(core: AppCore): Promise<void> {
  if ((await callVerb<{ pinNeeded: boolean }>(core, 'privacy.status')).pinNeeded)
    await callVerb(core, 'privacy.setPin', { pin: TEST_PIN });
}

/** Unlocks a locked window as its clinician would: TEST_PIN, or Continue where nothing is asked. */
export async function unlockWithTestPin(core: AppCore): Promise<void> {
  const status = await callVerb<{ locked: boolean; unlockWith: string }>(core, 'privacy.status');
  if (!status.locked) return;
  if (status.unlockWith === 'pin') await callVerb(core, 'privacy.unlock', { pin: TEST_PIN });
  if (status.unlockWith === 'continue') await callVerb(core, 'privacy.unlock');
}
