import { z } from 'zod';
import { setPartnerTokenSchema } from './contract/encounter';
import { NOTE_TEMPLATE_IDS } from './note-templates';
import { SERVICE_URL_RULE, isAllowedServiceUrl } from './service-url';
import { AUTO_PAUSE_MAX_MS, AUTO_PAUSE_MIN_MS, settingsSchema, type Settings } from './settings';
import { SENSITIVITIES, withSensitivity } from './voice-sensitivity';

/**
 * The managed configuration an IT admin installs with the app (issue 18): a JSON file read at
 * start. It sets what clinicians must not have to type (the service, the partner, how to sign
 * in) and the defaults of the rest; `locked` lists the keys a clinician may not change. Every
 * key is checked with the app's own rules; a file that breaks one stops the app at a screen that
 * names the file, the key and the rule, and nothing of it is applied.
 */
const shape = settingsSchema.shape;

/** The policy keys `locked` may name (the partner token is never shown, so never editable). */
const LOCKABLE = [
  'serviceUrl',
  'partnerId',
  'authModel',
  'oidcIssuer',
  'oidcClientId',
  'providerId',
  'demoAllowed',
  'notificationReceiver',
  'audioRetentionDays',
  'autoPauseSeconds',
  'voiceSensitivity',
  'idleLockMinutes',
  'noteTemplate',
  'noteSections',
  'consent',
  'consentWording',
  'visitAudio',
  'checksBeforeFinish',
  'replayAudio',
] as const;
type LockableKey = (typeof LOCKABLE)[number];

export const policySchema = z
  .object({
    serviceUrl: z.string().refine(isAllowedServiceUrl, { message: SERVICE_URL_RULE }),
    partnerId: shape.partnerId.pipe(z.string().min(1, { message: 'must not be empty' })),
    authModel: shape.authModel,
    oidcIssuer: shape.oidcIssuer,
    oidcClientId: shape.oidcClientId,
    /** Bearer and Single Auth Token partners: kept by main's secret box like a typed one. */
    partnerToken: setPartnerTokenSchema.shape.token,
    /** May hold {username}: the operating system's user name, so the clinician types nothing. */
    providerId: shape.providerId,
    /** Whether the first run offers the built-in demo (true when not set). */
    demoAllowed: z.boolean({ message: 'must be true or false' }),
    notificationReceiver: z.boolean({ message: 'must be true or false' }),
    audioRetentionDays: shape.audioRetentionDays,
    autoPauseSeconds: z
      .number({ message: 'must be a number of seconds' })
      .min(AUTO_PAUSE_MIN_MS / 1_000, {
        message: `must be between ${AUTO_PAUSE_MIN_MS / 1_000} and ${AUTO_PAUSE_MAX_MS / 1_000} seconds`,
      })
      .max(AUTO_PAUSE_MAX_MS / 1_000, {
        message: `must be between ${AUTO_PAUSE_MIN_MS / 1_000} and ${AUTO_PAUSE_MAX_MS / 1_000} seconds`,
      }),
    voiceSensitivity: z.enum(SENSITIVITIES, { message: `must be one of ${SENSITIVITIES.join(', ')}` }),
    idleLockMinutes: shape.idleLockMinutes,
    noteTemplate: z.enum(NOTE_TEMPLATE_IDS, { message: `must be one of ${NOTE_TEMPLATE_IDS.join(', ')}` }),
    noteSections: shape.noteSections,
    /** off, ask (a check before Start that can be skipped) or required (Start waits for it). */
    consent: shape.consent,
    /** The sentence read to the patient before recording. */
    consentWording: shape.consentWording,
    /**
     * The visit's audio the visit screen starts with: 'room' (the microphone) or 'telehealth' (the
     * microphone and this computer's sound, the video call). Locked, every visit records so.
     */
    visitAudio: shape.visitAudio,
    /** off, ask (Finished asks once while values are left to check) or required (refused until none is). */
    checksBeforeFinish: shape.checksBeforeFinish,
    /** Whether a visit's recording is kept until Finished, to play a line back (true when not set). */
    replayAudio: shape.replayAudio,
    /**
     * Machine policy only: lets an installed app take `--policy FILE` or AMBIENT_SCRIBE_POLICY in
     * place of this policy (a test bench, a portable install). Without it an installed app ignores
     * both, so a user cannot put their own service or token over IT's. Never lockable: it is not a
     * setting a clinician sees.
     */
    allowLocalPolicy: z.boolean({ message: 'must be true or false' }),
    /**
     * Whether a visit link naming another provider may switch to it (bearer and Single Auth Token
     * partners), after the clinician confirms in the window; for this run only, never stored
     * (issue 28). Off when not set: a link naming another provider is refused.
     */
    linksMaySwitchProvider: z.boolean({ message: 'must be true or false' }),
    locked: z.array(
      z.enum(LOCKABLE, {
        error: (issue) =>
          `must name keys of this file (${LOCKABLE.join(', ')}); "${String(issue.input)}" is not one`,
      }),
    ),
  })
  .partial()
  .strict();
export type Policy = z.infer<typeof policySchema>;

/** The settings each policy key sets (the clinician's screens lock these). */
const SETTINGS_OF: Record<LockableKey, (keyof Settings)[]> = {
  serviceUrl: ['service'],
  partnerId: ['partnerId'],
  authModel: ['authModel'],
  oidcIssuer: ['oidcIssuer'],
  oidcClientId: ['oidcClientId'],
  providerId: ['providerId'],
  demoAllowed: [],
  notificationReceiver: ['notificationReceiver'],
  audioRetentionDays: ['audioRetentionDays'],
  autoPauseSeconds: ['autoPauseAfterMs'],
  voiceSensitivity: ['voiceDetection'],
  idleLockMinutes: ['idleLockMinutes'],
  noteTemplate: ['noteTemplate'],
  noteSections: ['noteSections'],
  consent: ['consent'],
  consentWording: ['consentWording'],
  visitAudio: ['visitAudio'],
  checksBeforeFinish: ['checksBeforeFinish'],
  replayAudio: ['replayAudio'],
};

/** The settings a clinician may not change under this policy. */
export function lockedSettings(policy: Policy): (keyof Settings)[] {
  return [...new Set((policy.locked ?? []).flatMap((key) => SETTINGS_OF[key]))];
}

/** `{username}` in a provider ID, replaced by the operating system's user name. */
export function expandProviderId(template: string, username: string): string {
  return template.replaceAll('{username}', username);
}

/**
 * The settings this policy sets, over `base` (the stored settings or the defaults). A policy that
 * names the service also completes the first run: the clinician goes straight to sign-in.
 */
export function settingsFromPolicy(policy: Policy, base: Settings, context: { username: string }): Settings {
  const set = <K extends keyof Settings>(key: K, value: Settings[K] | undefined) =>
    value === undefined ? {} : ({ [key]: value } as Pick<Settings, K>);
  return {
    ...base,
    ...(policy.serviceUrl
      ? { service: { kind: 'url' as const, baseUrl: policy.serviceUrl }, firstRunComplete: true }
      : {}),
    ...set('partnerId', policy.partnerId),
    ...set('authModel', policy.authModel),
    ...set('oidcIssuer', policy.oidcIssuer),
    ...set('oidcClientId', policy.oidcClientId),
    ...set(
      'providerId',
      policy.providerId === undefined ? undefined : expandProviderId(policy.providerId, context.username),
    ),
    ...set('notificationReceiver', policy.notificationReceiver),
    ...set('audioRetentionDays', policy.audioRetentionDays),
    ...set(
      'autoPauseAfterMs',
      policy.autoPauseSeconds === undefined ? undefined : Math.round(policy.autoPauseSeconds * 1_000),
    ),
    ...set(
      'voiceDetection',
      policy.voiceSensitivity && withSensitivity(base.voiceDetection, policy.voiceSensitivity),
    ),
    ...set('idleLockMinutes', policy.idleLockMinutes),
    ...set('noteTemplate', policy.noteTemplate),
    ...set('noteSections', policy.noteSections),
    ...set('consent', policy.consent),
    ...set('consentWording', policy.consentWording),
    ...set('visitAudio', policy.visitAudio),
    ...set('checksBeforeFinish', policy.checksBeforeFinish),
    ...set('replayAudio', policy.replayAudio),
  };
}
