/**
 * The names of every verb (renderer → main, request → response) and every event (main → renderer)
 * of the app's contract, and the IPC channel each travels on. This file is dependency-free so the
 * sandboxed preload can import it without pulling in the schemas.
 */
export const VERB_NAMES = [
  'app.info',
  'settings.get',
  'settings.set',
  'secrets.status',
  'secrets.setPartnerToken',
  'auth.status',
  'auth.signIn',
  'auth.cancelSignIn',
  'auth.signOut',
  'encounter.start',
  'encounter.addForms',
  'recorder.state',
  'recorder.attach',
  'recorder.pause',
  'recorder.resume',
  'recorder.end',
  'recorder.cancel',
  'results.get',
  'history.list',
  'history.finish',
  'history.discard',
  'forms.templates',
  'forms.feedback',
  'visitLinks.get',
  'visitLinks.take',
  'visitLinks.decline',
  'notes.get',
  'notes.save',
  'notes.finish',
  'notes.unfinish',
  'notes.patient',
  'recording.span',
  'privacy.status',
  'privacy.lock',
  'privacy.unlock',
  'privacy.setPin',
] as const;
export const EVENT_NAMES = [
  'heartbeat',
  'auth.changed',
  'auth.openUrl',
  'recorder.changed',
  'recorder.chunkRefused',
  'results.progress',
  'history.changed',
  'visitLinks.changed',
  'privacy.changed',
  'window.shown',
] as const;

export type VerbName = (typeof VERB_NAMES)[number];
export type EventName = (typeof EVENT_NAMES)[number];

/** Electron IPC channel names; the only place they are spelled. */
export const verbChannel = (verb: VerbName): string => `scribe:verb:${verb}`;
export const eventChannel = (event: EventName): string => `scribe:event:${event}`;
/** The one-way binary channel for captured audio chunks (see audio-chunk.ts). */
export const CHUNK_CHANNEL = 'scribe:chunk';

export function isVerbName(value: unknown): value is VerbName {
  return typeof value === 'string' && (VERB_NAMES as readonly string[]).includes(value);
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (EVENT_NAMES as readonly string[]).includes(value);
}
