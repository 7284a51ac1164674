import { z } from 'zod';
import { SERVICE_URL_RULE, isAllowedServiceUrl } from './service-url';
import { NOTE_TEMPLATE_IDS } from './note-templates';
import { CONSENT_MODES, DEFAULT_CONSENT_WORDING, consentWordingSchema } from './consent';
import { CHECKS_BEFORE_FINISH_MODES } from './note-checks';
import { VISIT_AUDIO_MODES } from './visit-audio';
import {
  DEFAULT_SECTIONS,
  DEFAULT_SPECIALTY,
  SECTION_NAMES,
  SPECIALTIES,
  type SectionName,
} from './service/sections';

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

const LABEL_RULE = { message: 'must be at most 500 characters' };

/** The microphone to record from, remembered by id with its label as the fallback (ids can change). */
const microphoneSchema = z.object({
  /** '' = the system's default input. */
  deviceId: z.string().max(500, LABEL_RULE),
  label: z.string().max(500, LABEL_RULE),
});

/**
 * The browser's own voice processing. Off by default: the documentation service wants the room as
 * it is, and echo cancellation or noise suppression can remove quiet speech.
 */
const audioProcessingSchema = z.object({
  echoCancellation: z.boolean(),
  noiseSuppression: z.boolean(),
  autoGainControl: z.boolean(),
});

const probability = (name: string) =>
  z
    .number({ message: 'must be a number' })
    .min(0.05, { message: `must be between 0.05 and 0.95 (the ${name})` })
    .max(0.95, { message: `must be between 0.05 and 0.95 (the ${name})` });

const inRange = (p: number) => p >= 0.05 && p <= 0.95;
const bothInRange = (v: { positiveSpeechThreshold: number; negativeSpeechThreshold: number }) =>
  inRange(v.positiveSpeechThreshold) && inRange(v.negativeSpeechThreshold);

/** Silero VAD tuning (vad-web's FrameProcessor). The speech flag only; pausing is main's decision. */
export const voiceDetectionSchema = z
  .object({
    /** A frame at or above this probability starts (or continues) speech. */
    positiveSpeechThreshold: probability('probability that starts speech'),
    /** Speech ends after frames below this for the redemption time. */
    negativeSpeechThreshold: probability('probability under which speech may end'),
    redemptionMs: z
      .number()
      .int({ message: 'must be a whole number of ms' })
      .min(0, { message: 'must be between 0 and 5000 ms' })
      .max(5_000, { message: 'must be between 0 and 5000 ms' }),
    minSpeechMs: z
      .number()
      .int({ message: 'must be a whole number of ms' })
      .min(0, { message: 'must be between 0 and 2000 ms' })
      .max(2_000, { message: 'must be between 0 and 2000 ms' }),
  })
  // Compared only when both are in range: one mistake, one message.
  .refine((v) => !bothInRange(v) || v.negativeSpeechThreshold < v.positiveSpeechThreshold, {
    path: ['negativeSpeechThreshold'],
    message: 'must be below the speech start threshold',
  });
export type VoiceDetectionSettings = z.infer<typeof voiceDetectionSchema>;

/** The auto-pause delay's bounds, ms: well under the service's 25 s rule for a stream without audio. */
export const AUTO_PAUSE_MIN_MS = 2_000;
export const AUTO_PAUSE_MAX_MS = 20_000;
/** How long a visit's audio may stay on this computer (issue 7: default 7 days). */
export const AUDIO_RETENTION_MIN_DAYS = 1;
export const AUDIO_RETENTION_MAX_DAYS = 30;
const AUDIO_RETENTION_RULE = {
  message: `must be between ${AUDIO_RETENTION_MIN_DAYS} and ${AUDIO_RETENTION_MAX_DAYS} days`,
};
const AUTO_PAUSE_RULE = {
  message: `must be between ${AUTO_PAUSE_MIN_MS / 1000} and ${AUTO_PAUSE_MAX_MS / 1000} seconds`,
};

/** The idle lock's bounds, minutes (issue 17: default 10). */
export const IDLE_LOCK_MIN_MINUTES = 1;
export const IDLE_LOCK_MAX_MINUTES = 60;
const IDLE_LOCK_RULE = {
  message: `must be between ${IDLE_LOCK_MIN_MINUTES} and ${IDLE_LOCK_MAX_MINUTES} minutes`,
};

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
  microphone: microphoneSchema,
  audioProcessing: audioProcessingSchema,
  voiceDetection: voiceDetectionSchema,
  /** Non-speech this long while recording pauses the stream (the recorder's autoPauseAfterMs). */
  autoPauseAfterMs: z
    .number()
    .int({ message: 'must be a whole number of milliseconds' })
    .min(AUTO_PAUSE_MIN_MS, AUTO_PAUSE_RULE)
    .max(AUTO_PAUSE_MAX_MS, AUTO_PAUSE_RULE),
  /**
   * Unfinished visits' audio (encrypted) is deleted after this many days, whatever its state. A
   * visit with its note keeps its audio until it is Finished when `replayAudio` is on, else 10
   * minutes after the note arrives.
   */
  audioRetentionDays: z
    .number()
    .int({ message: 'must be a whole number of days' })
    .min(AUDIO_RETENTION_MIN_DAYS, AUDIO_RETENTION_RULE)
    .max(AUDIO_RETENTION_MAX_DAYS, AUDIO_RETENTION_RULE),
  /** The note template the next visit starts with (note-templates.ts), remembered between launches. */
  noteTemplate: z.enum(NOTE_TEMPLATE_IDS, { message: `must be one of ${NOTE_TEMPLATE_IDS.join(', ')}` }),
  /** The Custom template's sections, in the service's order. */
  noteSections: z
    .array(
      z.enum(SECTION_NAMES as [SectionName, ...SectionName[]], {
        message: 'must be the service’s section names',
      }),
    )
    .min(1, { message: 'must include at least one section' }),
  /**
   * Minutes without use after which the window locks and forgets every patient detail it showed
   * (never while recording): a shared exam-room laptop left open between patients.
   */
  idleLockMinutes: z
    .number()
    .int({ message: 'must be a whole number of minutes' })
    .min(IDLE_LOCK_MIN_MINUTES, IDLE_LOCK_RULE)
    .max(IDLE_LOCK_MAX_MINUTES, IDLE_LOCK_RULE),
  /** Whether Start asks for the patient's consent to be recorded, or requires it (consent.ts). */
  consent: z.enum(CONSENT_MODES, { message: 'must be one of off, ask, required' }),
  /** The sentence read to the patient before recording. */
  consentWording: consentWordingSchema,
  /**
   * The visit's audio (visit-audio.ts): the microphone alone ('room') or with this computer's sound
   * ('telehealth', the call), chosen on the visit screen and remembered for the next visit.
   */
  visitAudio: z.enum(VISIT_AUDIO_MODES, { message: `must be one of ${VISIT_AUDIO_MODES.join(', ')}` }),
  /** What Finished does while the note still has values to check (note-checks.ts). */
  checksBeforeFinish: z.enum(CHECKS_BEFORE_FINISH_MODES, {
    message: `must be one of ${CHECKS_BEFORE_FINISH_MODES.join(', ')}`,
  }),
  /**
   * A visit's recording stays on this computer (encrypted, for the clinician who recorded it) until
   * its note is Finished, so a line of the transcript can be played back (issue 38). Off: the audio
   * goes 10 minutes after the note arrives, as before, and nothing plays.
   */
  replayAudio: z.boolean({ message: 'must be true or false' }),
  /** Set once the clinician has saved the first-run screen; a returning user skips it. */
  firstRunComplete: z.boolean(),
});

export type Settings = z.infer<typeof settingsSchema>;

/**
 * What a real service needs before anyone can sign in, beyond each field's own rules, so the
 * service page names every missing field at once (issue 17): the partner ID; for a standard
 * partner the identity provider's issuer and client ID; for the others the partner token (typed
 * now or stored before) and the provider ID. The built-in sandbox brings its own. Sentences by
 * field path; `partnerToken` is the token field, which is not a setting.
 */
export function serviceSetupProblems(
  settings: Pick<
    Settings,
    'service' | 'authModel' | 'partnerId' | 'providerId' | 'oidcIssuer' | 'oidcClientId'
  >,
  partnerToken: { given: boolean },
): Record<string, string> {
  if (settings.service.kind !== 'url') return {};
  const missing = (field: keyof typeof SETTING_LABELS, what: string) => ({
    [field]: `${SETTING_LABELS[field]} is needed: ${what}.`,
  });
  const blank = (value: unknown) => typeof value !== 'string' || value.trim() === '';
  const standard = settings.authModel === 'standard';
  return {
    ...(blank(settings.partnerId) ? missing('partnerId', 'the ID the service issued at onboarding') : {}),
    ...(standard && blank(settings.oidcIssuer)
      ? missing('oidcIssuer', 'your organisation’s OpenID Connect issuer, from IT')
      : {}),
    ...(standard && blank(settings.oidcClientId)
      ? missing('oidcClientId', 'this app’s client ID at the identity provider')
      : {}),
    ...(!standard && !partnerToken.given ? missing('partnerToken', 'the partner token from onboarding') : {}),
    ...(!standard && blank(settings.providerId)
      ? missing('providerId', 'your ID in the partner’s system, as agreed at onboarding')
      : {}),
  };
}

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
  microphone: { deviceId: '', label: '' },
  audioProcessing: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
  /**
   * For a consultation in a quiet exam room. Silero v5's authors suggest 0.5, with the negative
   * threshold 0.15 lower; vad-web lowers the start to 0.3 for v5. We start at 0.2: through
   * Chromium's 16 kHz resampling (the capture path, docs/benchmarks.md) a soft onset after a long
   * silence ("Your blood pressure…" in e2e/fixtures/conversation.wav) peaks at 0.22–0.26 in its
   * first 100 ms where the original file gives 0.56, so 0.3 flagged that turn up to 142 ms late.
   * Room noise alone stays under 0.05 (speech-detector.test.ts), so a low start costs nothing in a
   * quiet room; in a noisy one it only keeps the stream running, never drops speech.
   * The end threshold keeps a gap below the start so a voice hovering at the threshold does not
   * flicker. The redemption only has to bridge pauses inside a sentence: the recorder already waits
   * 4 s of non-speech before pausing and replays 600 ms of pre-roll on resume, so vad-web's 1,400 ms
   * (meant for not cutting off a voice assistant's user) would only delay auto-pause and blur the
   * speech indicator. minSpeechMs does not change the flag (see speech-detector-options.ts); 250 ms
   * keeps a short "No." or "Yes." from being labelled a misfire.
   */
  voiceDetection: {
    positiveSpeechThreshold: 0.2,
    negativeSpeechThreshold: 0.1,
    redemptionMs: 600,
    minSpeechMs: 250,
  },
  /** The recorder's DEFAULT_RECORDER_TIMING.autoPauseAfterMs: a pause to think is not the end of a turn. */
  autoPauseAfterMs: 4_000,
  audioRetentionDays: 7,
  idleLockMinutes: 10,
  noteTemplate: 'standard',
  noteSections: DEFAULT_SECTIONS,
  consent: 'off',
  consentWording: DEFAULT_CONSENT_WORDING,
  visitAudio: 'room',
  checksBeforeFinish: 'ask',
  replayAudio: true,
  firstRunComplete: false,
};

/** Human labels for settings paths, so a validation message can name the field a person sees. */
export const SETTING_LABELS: Record<string, string> = {
  service: 'Service',
  'service.kind': 'Service',
  'service.baseUrl': 'Service URL',
  partnerId: 'Partner ID',
  partnerToken: 'Partner token',
  authModel: 'Sign-in model',
  providerId: 'Provider ID',
  providerName: 'Provider name',
  providerOrgId: 'Organisation ID',
  providerSpecialty: 'Specialty',
  oidcIssuer: 'Identity provider (issuer) URL',
  oidcClientId: 'Client ID at the identity provider',
  notificationReceiver: 'Notification receiver',
  theme: 'Theme',
  microphone: 'Microphone',
  'microphone.deviceId': 'Microphone',
  'microphone.label': 'Microphone name',
  audioProcessing: 'Audio processing',
  'audioProcessing.echoCancellation': 'Echo cancellation',
  'audioProcessing.noiseSuppression': 'Noise suppression',
  'audioProcessing.autoGainControl': 'Automatic gain',
  voiceDetection: 'Voice detection',
  'voiceDetection.positiveSpeechThreshold': 'Speech start threshold',
  'voiceDetection.negativeSpeechThreshold': 'Speech end threshold',
  'voiceDetection.redemptionMs': 'Speech end delay',
  'voiceDetection.minSpeechMs': 'Shortest speech',
  autoPauseAfterMs: 'Auto-pause delay',
  audioRetentionDays: 'Keep unfinished visits',
  idleLockMinutes: 'Lock after',
  noteTemplate: 'Note template',
  noteSections: 'Note sections',
  consent: 'Patient consent',
  consentWording: 'What to say to the patient',
  visitAudio: 'Visit audio',
  checksBeforeFinish: 'Values to check before Finished',
  replayAudio: 'Keep the recording to play back',
  firstRunComplete: 'First run',
};
