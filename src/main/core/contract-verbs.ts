import type { AppInfo, AuthStatus } from '../../shared/contract';
import type { VerbHandlers } from './contract-router';
import type { createEncounterController } from './encounter/encounter-controller';
import { deliveryTargetOf, type ServiceSession } from './encounter/service-session';
import { asStartProblem, patientOf, refuseWithoutConsent } from './encounter/visit-start';
import type { EncounterHistory } from './history/encounter-history';
import { noteVerbs, type createVisitNotes } from './notes/visit-notes';
import type { Logger } from './ports';
import type { createActingClinician } from './privacy/acting-clinician';
import type { createClinicianVisits } from './privacy/clinician-visits';
import type { createReplay } from './replay/replay-verbs';
import type { UnlockPins } from './privacy/unlock-pins';
import type { WindowPrivacy } from './privacy/window-privacy';
import type { SecretBox } from './secrets/secret-box';
import { partnerTokenVerbs } from './secrets/partner-token-verbs';
import { ServiceCallError } from './service/service-error';
import type { SettingsService } from './settings-service';
import { UserFacingError } from './user-facing-error';
import type { VisitLinkInbox } from './visit-links/visit-link-inbox';

/** The core's parts the verbs are wired to, as app-core.ts made them. */
export interface CoreVerbsDeps {
  /** The shell's facts (policy applied), the remembering secret box, the log. */
  deps: { appInfo: AppInfo; secrets: SecretBox; log: Logger };
  settings: SettingsService;
  clinician: ReturnType<typeof createActingClinician>;
  signOutGate: ReturnType<typeof createActingClinician>['gate'];
  /** The service session of the clinician the app acts for now. */
  session(): Promise<ServiceSession>;
  /** The sign-in status as the window gets it. */
  authStatus(): Promise<AuthStatus>;
  signOut(): Promise<void>;
  privacy: WindowPrivacy;
  pins: UnlockPins;
  encounters: ReturnType<typeof createEncounterController>;
  notes: ReturnType<typeof createVisitNotes>;
  history: EncounterHistory;
  clinicianVisits: ReturnType<typeof createClinicianVisits>;
  /** History as the clinician the app acts for sees it. */
  myHistory(): ReturnType<EncounterHistory['list']>;
  /** Visits left finishing go on their way now (maintenance.ts). */
  resumeFinishing(): Promise<void>;
  visitLinks: VisitLinkInbox;
  /** Playing a visit back, and its recording deleted at Finished (issue 38). */
  replay: ReturnType<typeof createReplay>;
}

/**
 * Every verb of the contract, wired to the part of the core that does it, with who may call it
 * (signed in and unlocked, the visit's own clinician) checked here; contract-router.ts validates
 * the payloads and turns what is thrown into the answer the window shows.
 */
export function coreVerbs(parts: CoreVerbsDeps): VerbHandlers {
  const { deps, settings, clinician, signOutGate, session, authStatus, signOut, privacy, pins } = parts;
  const { encounters, notes, history, clinicianVisits, myHistory, resumeFinishing, visitLinks, replay } =
    parts;
  /**
   * The check a partner token entered by IT starts (a sign-in with it, then the blocked PINs
   * cleared). Sign in waits for it: pressed the moment IT's Save came back, it was refused as if
   * the token had never been entered (a fresh-clone CI run on a busy machine met that).
   */
  let partnerTokenCheck: Promise<void> = Promise.resolve();
  // The visit is the caller's (the router's owner gate); is there anything left of it to finish?
  const unfinished = (sessionId: string) => {
    const visit = encounters.spooled.list().find((v) => v.sessionId === sessionId);
    if (!visit) throw new UserFacingError('invalid_request', 'This visit has nothing left to finish.');
    return visit;
  };
  return {
    'app.info': () => deps.appInfo,
    'settings.get': () => settings.get(),
    'settings.set': async (patch) => {
      // Signed out, only who signs in may change ("Not you?"): the rest are the clinician's (the
      // consent rule, retention, the idle lock), and a page saved whole sends them unchanged.
      if (signOutGate.signedOut()) {
        const current = settings.get() as Record<string, unknown>;
        const changed = Object.entries(patch).filter(
          ([key, value]) =>
            !(SIGN_IN_SETTINGS as readonly string[]).includes(key) &&
            JSON.stringify(value) !== JSON.stringify(current[key]),
        );
        if (changed.length > 0)
          throw new UserFacingError('invalid_request', 'You signed out: sign in to change these settings.');
      }
      const saved = await settings.update(patch);
      // Who the app is, set by hand, ends a switch a link made.
      if (IDENTITY_SETTINGS.some((key) => key in patch)) {
        clinician.endSwitch({ forgetStatus: true });
        // The session of these settings may be signed in already (a partner token saved for the new
        // address signs in before the settings are): known now, or the lock would take the
        // clinician for not signed in, and their PIN step would never show.
        clinician.observe(
          await authStatus().catch((error: unknown) => {
            // Not known (the demo did not start): taken for not signed in, which asks for no more.
            deps.log.warn('settings: the sign-in status could not be read', { error: (error as Error).name });
            return { model: saved.authModel, signedIn: false, signingIn: false, demo: false };
          }),
        );
        // Another clinician with a PIN here: locked before anything signs in as them.
        await privacy.clinicianChanged();
      }
      return saved;
    },
    ...partnerTokenVerbs({
      secrets: deps.secrets,
      settings,
      auth: async () => (await session()).auth,
      refuse: () => {
        if (signOutGate.locked())
          throw new UserFacingError('invalid_request', 'This window is locked: unlock it first.');
      },
      // The organisation's credential again (IT): a PIN blocked by wrong tries may be chosen
      // anew, once the service took the token (any text typed there would not do).
      onEntered: (service, partnerId) => {
        partnerTokenCheck = (async () => {
          const current = await session();
          if (current.connection.service !== service) return;
          // The service takes the token: a sign-in with it (undone for a window its clinician
          // signed out of, which stays signed out).
          const signedOut = signOutGate.signedOut();
          const status = await current.auth.signIn();
          // Unless a Sign in pressed before the Save signed the window in meanwhile (one pressed
          // after it waits for this check).
          if (signedOut && signOutGate.signedOut()) await current.auth.signOut();
          if (!status.signedIn) throw new Error('the partner token was not taken');
          await pins.clearBlocked(service, partnerId);
          await privacy.changed();
        })().catch((error: unknown) =>
          deps.log.info('privacy: blocked PINs stay blocked: the partner token was not taken', {
            error: (error as Error).name,
          }),
        );
      },
    }),
    'auth.status': () => authStatus(),
    'auth.signIn': async () => {
      // After a Sign out, whoever is at the keyboard proves it at the IdP, until a sign-in that
      // asked for the password completes (a cancelled one leaves it owed: issue 39, item 1).
      const passwordOwed = privacy.passwordOwed();
      await partnerTokenCheck;
      // A clinician with a PIN here signs in to a locked window, which asks for it.
      await privacy.signIn();
      const current = await session();
      // The status says what went wrong.
      const status = await current.auth.signIn({ freshLogin: passwordOwed }).catch(() => undefined);
      if (passwordOwed && status?.signedIn && current.auth.passwordProven()) await privacy.passwordGiven();
      return authStatus();
    },
    'auth.cancelSignIn': async () => {
      (await session()).auth.cancelSignIn();
      return authStatus();
    },
    'auth.signOut': async () => {
      await signOut();
      return authStatus();
    },
    'encounter.start': async (request) => {
      refuseWithoutConsent(request, settings.get().consent);
      const current = await session();
      const view = await encounters
        .start(request, current, { autoPauseAfterMs: settings.get().autoPauseAfterMs })
        .catch((error: unknown) => {
          throw error instanceof ServiceCallError ? asStartProblem(error) : error;
        });
      // The note's patient line, sealed for the clinician recording it (issue 31). Not waited
      // for: the recording starts at once, and a read of it waits for the write.
      const patient = patientOf(request);
      if (view.sessionId && patient)
        void notes.keepPatient(view.sessionId, patient, deliveryTargetOf(current));
      return view;
    },
    'encounter.addForms': async ({ formItems }) => {
      await encounters.addForms(formItems);
      return undefined;
    },
    'recorder.state': () => {
      const view = encounters.view();
      if (!view.sessionId) return view;
      // The last visit is its clinician's: the next one signed in sees the recorder, not which
      // visit it was (issue 39, item 5).
      const entry = history.find(view.sessionId);
      if (entry && clinicianVisits.mine(entry)) return view;
      const { sessionId: _theirs, encounterId: _named, ...recorder } = view;
      return recorder;
    },
    'recorder.attach': () => encounters.attachCapture(),
    'recorder.pause': () => encounters.pause(),
    'recorder.resume': () => encounters.resume(),
    'recorder.end': () => encounters.end(),
    'recorder.cancel': async () => {
      const sessionId = encounters.view().sessionId;
      const view = await encounters.cancel();
      // Discarded: nothing of the visit is kept, its patient details included.
      if (sessionId && view.state === 'cancelled') notes.forget(sessionId);
      return view;
    },
    // The owner's (the router's gate): History knows the visit and it is theirs.
    'results.get': async ({ sessionId }) => {
      if (encounters.has(sessionId)) return encounters.results(sessionId);
      // The gate also admits a visit's form leg by its own ID, which has no results of its own.
      const entry = history.find(sessionId);
      if (!entry) throw new UserFacingError('invalid_request', 'This app has no results for that recording.');
      return encounters.reopen(entry, await session());
    },
    'history.list': () => ({ entries: myHistory() }),
    'history.finish': async ({ sessionId }) => {
      await encounters.spooled.finish(unfinished(sessionId), await session());
      return undefined;
    },
    'history.discard': async ({ sessionId }) => {
      encounters.spooled.discard(unfinished(sessionId));
      notes.forget(sessionId);
      return undefined;
    },
    'forms.templates': async () => {
      return (await session()).rest.formTemplates();
    },
    'forms.feedback': async ({ sessionId, formId, feedback }) => {
      await (await session()).rest.sendFormFeedback(sessionId, formId, feedback);
      return undefined;
    },
    // notes.finish deletes the visit's recording too, before History says Finished (app-core.ts).
    ...noteVerbs(notes),
    'recording.span': (request) => replay.span(request),
    'privacy.status': () => privacy.status(),
    'privacy.lock': () => privacy.lock(),
    'privacy.unlock': async (request) => {
      const unlocked = await privacy.unlock(request);
      // Visits that were on their way when the window locked go on now.
      if (!unlocked.locked) void resumeFinishing();
      return unlocked;
    },
    'privacy.setPin': ({ pin }) => privacy.setPin(pin),
    'visitLinks.get': () => visitLinks.links(),
    'visitLinks.take': ({ id, switchProvider }) => {
      return visitLinks.take(id, switchProvider === undefined ? {} : { switchProvider });
    },
    'visitLinks.decline': ({ id }) => {
      visitLinks.decline(id);
      return undefined;
    },
  };
}

/** Settings that say which service and who the app is there: setting one ends a link's switch. */
const IDENTITY_SETTINGS = ['service', 'partnerId', 'authModel', 'providerId'] as const;
/** Who signs in, and how: what a clinician who signed out may change (issue 39). */
const SIGN_IN_SETTINGS = [
  ...IDENTITY_SETTINGS,
  'providerName',
  'providerOrgId',
  'providerSpecialty',
  'oidcIssuer',
  'oidcClientId',
  'firstRunComplete',
] as const;
