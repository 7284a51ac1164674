import type { EventName, VerbName } from './names';

/**
 * Who may call each verb of the contract (issue 39), checked by main's router before the verb's
 * handler runs, so a verb added without one does not compile and the gate test names it:
 *
 * - `open`: anyone at the window: what the app is, the settings as they stand, signing in and
 *   out, and the lock's own verbs;
 * - `not locked`: the settings that say who signs in, and the organisation's partner token, which
 *   set up a sign-in (a clinician who signed out may change them; a locked window may not);
 * - `unlocked`: the clinician the app acts for, neither signed out nor locked;
 * - `owner`: that clinician, and the visit the request names (its `sessionId`) is theirs: History
 *   knows it and it was recorded by them. A visit History does not know is refused.
 *
 * `to` is what the refusal says the clinician may do once they sign in or unlock ("You signed out:
 * sign in to open a visit.").
 */
export type VerbGate =
  | { kind: 'open' }
  | { kind: 'not locked'; to: string }
  /**
   * `startsVisit`: the verb makes a visit on this computer, so its clinician must have proven who
   * they are there first: signed in, and with their PIN chosen where one applies. The other verbs
   * of a clinician who has not signed in yet are left to the sign-out and lock gates.
   */
  | { kind: 'unlocked'; to: string; startsVisit?: true }
  | { kind: 'owner'; to: string };

const open: VerbGate = { kind: 'open' };
const notLocked = (to: string): VerbGate => ({ kind: 'not locked', to });
const unlocked = (to: string): VerbGate => ({ kind: 'unlocked', to });
const startsVisit = (to: string): VerbGate => ({ kind: 'unlocked', to, startsVisit: true });
const owner = (to: string): VerbGate => ({ kind: 'owner', to });

/** Every verb's gate. */
export const VERB_GATES = {
  'app.info': open,
  'settings.get': open,
  // Which service and clinician sign in: a clinician who signed out changes them ("Not you?");
  // the rest of the settings are the clinician's, and settings.set refuses them while signed out.
  'settings.set': notLocked('change the settings'),
  'secrets.status': open,
  // IT's partner token, entered again to clear a blocked PIN, which signed the window out.
  'secrets.setPartnerToken': notLocked('enter the partner token'),
  'auth.status': open,
  'auth.signIn': open,
  'auth.cancelSignIn': open,
  'auth.signOut': open,
  'encounter.start': startsVisit('record'),
  'encounter.addForms': unlocked('add forms to the visit'),
  'recorder.state': unlocked('see the recording'),
  'recorder.attach': unlocked('record'),
  'recorder.pause': unlocked('record'),
  'recorder.resume': unlocked('record'),
  'recorder.end': unlocked('record'),
  'recorder.cancel': unlocked('record'),
  'results.get': owner('open a visit'),
  'history.list': unlocked('see your visits'),
  'history.finish': owner('finish a visit'),
  'history.discard': owner('discard a visit'),
  'forms.templates': unlocked('see the forms'),
  'forms.feedback': owner('send feedback'),
  'visitLinks.get': unlocked('see the visit the EHR sent'),
  'visitLinks.take': unlocked('take the visit the EHR sent'),
  'visitLinks.decline': unlocked('decline the visit the EHR sent'),
  'notes.get': owner('see and keep your edits of this note'),
  'notes.save': owner('see and keep your edits of this note'),
  'notes.finish': owner('finish this note'),
  'notes.unfinish': owner('finish this note'),
  'notes.patient': owner('see and keep your edits of this note'),
  'recording.span': owner('play the recording'),
  'privacy.status': open,
  'privacy.lock': open,
  'privacy.unlock': open,
  'privacy.setPin': open,
} as const satisfies Record<VerbName, VerbGate>;

/**
 * Who is sent each event (issue 39): `open` events go to the window whatever its state; `unlocked`
 * ones carry a visit (History's list, a visit link's patient, a note's progress) and are withheld
 * while the window is signed out or locked. Main sends History again when the window opens; the
 * window reads the links again itself (privacy-slice.ts).
 */
export type EventGate = 'open' | 'unlocked';

export const EVENT_GATES = {
  heartbeat: 'open',
  'auth.changed': 'open',
  'auth.openUrl': 'open',
  // The recording screen stays while a visit records (the window does not lock meanwhile), and
  // recorder.state already names no visit of another clinician.
  'recorder.changed': 'open',
  'recorder.chunkRefused': 'open',
  'results.progress': 'unlocked',
  'history.changed': 'unlocked',
  'visitLinks.changed': 'unlocked',
  'privacy.changed': 'open',
  // Says only whether the window is minimised; sent by the shell, not the core.
  'window.shown': 'open',
} as const satisfies Record<EventName, EventGate>;
