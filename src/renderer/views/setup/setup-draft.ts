import type { AuthModel, Settings, SettingsPatch } from '../../../shared/settings';
import { sensitivityOf, withSensitivity, type Sensitivity } from '../../settings/voice-sensitivity';

/** The Setup form as typed: what the fields hold between loading the settings and Save. */
export interface Draft {
  serviceKind: Settings['service']['kind'];
  baseUrl: string;
  partnerId: string;
  authModel: AuthModel;
  providerId: string;
  providerName: string;
  providerOrgId: string;
  providerSpecialty: Settings['providerSpecialty'];
  oidcIssuer: string;
  oidcClientId: string;
  notificationReceiver: boolean;
  theme: Settings['theme'];
  audioProcessing: Settings['audioProcessing'];
  /** A preset, or 'custom' for thresholds tuned by hand (kept as they are). */
  sensitivity: Sensitivity | 'custom';
  /** As typed, in seconds. */
  autoPauseSeconds: string;
  /** As typed, in days. */
  retentionDays: string;
  /** As typed, in minutes. */
  idleLockMinutes: string;
  consent: Settings['consent'];
  consentWording: string;
  checksBeforeFinish: Settings['checksBeforeFinish'];
  replayAudio: boolean;
}

/** What every fieldset of the form gets: the draft, a way to change part of it, main's problems by field. */
export interface DraftFieldsProps {
  draft: Draft;
  update: (patch: Partial<Draft>) => void;
  problems: Record<string, string>;
}

export function draftFrom(settings: Settings): Draft {
  return {
    serviceKind: settings.service.kind,
    baseUrl: settings.service.kind === 'url' ? settings.service.baseUrl : '',
    partnerId: settings.partnerId,
    authModel: settings.authModel,
    providerId: settings.providerId,
    providerName: settings.providerName,
    providerOrgId: settings.providerOrgId,
    providerSpecialty: settings.providerSpecialty,
    oidcIssuer: settings.oidcIssuer,
    oidcClientId: settings.oidcClientId,
    notificationReceiver: settings.notificationReceiver,
    theme: settings.theme,
    audioProcessing: settings.audioProcessing,
    sensitivity: sensitivityOf(settings.voiceDetection) ?? 'custom',
    autoPauseSeconds: String(settings.autoPauseAfterMs / 1000),
    retentionDays: String(settings.audioRetentionDays),
    idleLockMinutes: String(settings.idleLockMinutes),
    consent: settings.consent,
    consentWording: settings.consentWording,
    checksBeforeFinish: settings.checksBeforeFinish,
    replayAudio: settings.replayAudio,
  };
}

/** The two settings pages (issue 17): the clinician's own, and the service's (for IT). */
export type SettingsPage = 'clinician' | 'service';

/** Which settings each page saves: a page's Save never changes what the other page shows. */
const PAGE_KEYS: Record<SettingsPage, readonly (keyof SettingsPatch)[]> = {
  clinician: [
    'theme',
    'audioProcessing',
    'voiceDetection',
    'autoPauseAfterMs',
    'idleLockMinutes',
    'consent',
    'consentWording',
    'checksBeforeFinish',
  ],
  service: [
    'service',
    'partnerId',
    'authModel',
    'providerId',
    'providerName',
    'providerOrgId',
    'providerSpecialty',
    'oidcIssuer',
    'oidcClientId',
    'notificationReceiver',
    'audioRetentionDays',
    'replayAudio',
    'firstRunComplete',
  ],
};

/** What one page's Save sends: its own settings, as typed. */
export function pagePatchFrom(page: SettingsPage, draft: Draft, settings: Settings): SettingsPatch {
  const whole = patchFrom(draft, settings);
  return Object.fromEntries(PAGE_KEYS[page].map((key) => [key, whole[key]])) as SettingsPatch;
}

export function patchFrom(draft: Draft, settings: Settings): SettingsPatch {
  const seconds = draft.autoPauseSeconds.trim() === '' ? Number.NaN : Number(draft.autoPauseSeconds);
  return {
    service:
      draft.serviceKind === 'url'
        ? { kind: 'url', baseUrl: draft.baseUrl.trim() }
        : { kind: 'builtin-sandbox' },
    partnerId: draft.partnerId,
    authModel: draft.authModel,
    providerId: draft.providerId,
    providerName: draft.providerName,
    providerOrgId: draft.providerOrgId,
    providerSpecialty: draft.providerSpecialty,
    oidcIssuer: draft.oidcIssuer.trim(),
    oidcClientId: draft.oidcClientId,
    notificationReceiver: draft.notificationReceiver,
    theme: draft.theme,
    audioProcessing: draft.audioProcessing,
    voiceDetection:
      draft.sensitivity === 'custom'
        ? settings.voiceDetection
        : withSensitivity(settings.voiceDetection, draft.sensitivity),
    // Whole ms: 2.5 s is 2500 ms, never 2499.9999.
    autoPauseAfterMs: Math.round(seconds * 1000),
    audioRetentionDays: draft.retentionDays.trim() === '' ? Number.NaN : Number(draft.retentionDays),
    idleLockMinutes: draft.idleLockMinutes.trim() === '' ? Number.NaN : Number(draft.idleLockMinutes),
    consent: draft.consent,
    consentWording: draft.consentWording,
    checksBeforeFinish: draft.checksBeforeFinish,
    replayAudio: draft.replayAudio,
    firstRunComplete: true,
  };
}
