import { appInfoSchema } from '../../../shared/contract';
import type { AppCoreDeps } from '../app-core';
import { createSecretValues, rememberingSecretBox } from '../logging/secret-values';
import { bindLegacySecrets, credentialPlaces } from '../secrets/bound-secrets';
import { storePolicyPartnerToken } from '../secrets/partner-token-verbs';
import { createSettingsService } from '../settings-service';
import { describePolicyProblems } from './policy-file';

/**
 * The first steps of every start, before any part of the core is made: what the shell gave, held
 * to the contract; the organisation's policy applied (or, broken, shown to IT); the settings
 * loaded under it; and the credentials stored earlier bound to their service.
 */
export async function prepareStart(shellDeps: AppCoreDeps) {
  const secretValues = shellDeps.secretValues ?? createSecretValues();
  // Every secret read from or stored in the box is known to the scrubber from then on. The shell's
  // facts cross the contract as they are, so they are held to its schema here, once.
  const deps = {
    ...shellDeps,
    appInfo: appInfoSchema.parse(shellDeps.appInfo),
    secrets: rememberingSecretBox(shellDeps.secrets, secretValues),
  };
  // A policy that breaks a rule is not applied at all, and the window shows IT what to fix.
  const policyReading = shellDeps.policy ?? { kind: 'none' };
  const policy = policyReading.kind === 'policy' ? policyReading : undefined;
  if (policyReading.kind === 'invalid') {
    deps.log.error(`policy: ${describePolicyProblems(policyReading.file, policyReading.problems)}`);
    deps.appInfo = {
      ...deps.appInfo,
      policyProblem: { file: policyReading.file, problems: policyReading.problems },
    };
  } else if (policy) {
    deps.log.info('policy: applied', { file: policy.file, keys: Object.keys(policy.policy) });
  }
  // Where each run starts in the log, and with what.
  deps.log.info('app: starting', {
    mode: deps.appInfo.mode,
    version: deps.appInfo.version,
    platform: deps.appInfo.platform,
  });
  const settings = await createSettingsService(
    deps.settingsStorage,
    deps.log,
    ...(policy ? [{ policy: policy.policy, username: shellDeps.username ?? '' }] : []),
  );
  // Credentials stored by an earlier version belong to the service they were entered for.
  await bindLegacySecrets(deps.secrets, credentialPlaces(settings.get()), deps.log).catch((error: unknown) =>
    deps.log.warn('secrets: could not bind stored credentials', { error: (error as Error).name }),
  );
  if (policy) {
    deps.appInfo = {
      ...deps.appInfo,
      managed: {
        file: policy.file,
        locked: [...settings.locked],
        demoAllowed: policy.policy.demoAllowed ?? true,
      },
    };
    await storePolicyPartnerToken(policy.policy, deps.secrets, settings.get(), deps.log);
  }
  return { deps, secretValues, policy, settings };
}
