import { z } from 'zod';
import { SERVICE_URL_RULE, isAllowedServiceUrl } from './service-url';
import { DEFAULT_SPECIALTY, SPECIALTIES } from './service/sections';

/** The three partner models of the service interface ("Authentication"). */
export const AUTH_MODELS = ['standard', 'bearer', 'single_auth_token'] as const;
export type AuthModel = (typeof AUTH_MODELS)[number];

export const THEMES = ['system', 'light', 'dark'] as const;

const serviceSchema = z.discriminatedUnion('kind', [
  /** The sandbox emulator started inside the app: a demo with simulated notes, no account. */
  z.object({ kind: z.literal('builtin-sandbox') }),
  z.object({
    kind: z.literal('url'),
    baseUrl: z.string().refine(isAllowedServiceUrl, { message: SERVICE_URL_RULE }),
  }),
]);

/**
 * Everything the clinician or IT admin configures. No secret lives here: partner tokens and
 * refresh tokens go through the main process's secret box, never through settings.
 */
export const settingsSchema = z.object({
  service: serviceSchema,
  partnerId: z.string().trim().max(200, { message: 'must be at most 200 characters' }),
  authModel: z.enum(AUTH_MODELS, { message: 'must be one of standard, bearer, single_auth_token' }),
  providerId: z.string().trim().max(200, { message: 'must be at most 200 characters' }),
  /** For Register: the provider's display name, organisation and specialty. */
  providerName: z.string().trim().max(200, { message: 'must be at most 200 characters' }),
  providerOrgId: z.string().trim().max(200, { message: 'must be at most 200 characters' }),
  providerSpecialty: z.enum(SPECIALTIES, { message: `must be one of ${SPECIALTIES.join(', ')}` }),
  /** Standard partners: the partner's OpenID Connect issuer and this app's client id there. */
  oidcIssuer: z.union([z.literal(''), z.string().refine(isAllowedServiceUrl, { message: SERVICE_URL_RULE })]),
  oidcClientId: z.string().trim().max(200, { message: 'must be at most 200 characters' }),
  /** Listen on 127.0.0.1 for the service's notifications (polling stays the fallback). */
  notificationReceiver: z.boolean(),
  theme: z.enum(THEMES, { message: 'must be one of system, light, dark' }),
  /** Set once the clinician has saved the first-run screen; a returning user skips it. */
  firstRunComplete: z.boolean(),
});

export type Settings = z.infer<typeof settingsSchema>;

/** A partial update: any top-level setting may be replaced; unknown keys are rejected. */
export const settingsPatchSchema = settingsSchema.partial().strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const DEFAULT_SETTINGS: Settings = {
  service: { kind: 'builtin-sandbox' },
  partnerId: '',
  authModel: 'bearer',
  providerId: '',
  providerName: '',
  providerOrgId: '',
  providerSpecialty: DEFAULT_SPECIALTY,
  oidcIssuer: '',
  oidcClientId: 'ambient-scribe-desktop',
  notificationReceiver: false,
  theme: 'system',
  firstRunComplete: false,
};

/** Human labels for settings paths, so a validation message can name the field a person sees. */
export const SETTING_LABELS: Record<string, string> = {
  service: 'Service',
  'service.kind': 'Service',
  'service.baseUrl': 'Service URL',
  partnerId: 'Partner ID',
  authModel: 'Sign-in model',
  providerId: 'Provider ID',
  providerName: 'Provider name',
  providerOrgId: 'Organisation ID',
  providerSpecialty: 'Specialty',
  oidcIssuer: 'Identity provider (issuer) URL',
  oidcClientId: 'Client ID at the identity provider',
  notificationReceiver: 'Notification receiver',
  theme: 'Theme',
  firstRunComplete: 'First run',
};
