import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  appInfoSchema,
  ENCOUNTER_LABELS,
  RECORDING_STATES,
  type AppInfo,
  type StartEncounter,
} from '../../shared/contract';
import { localIsoDate } from '../../shared/local-date';
import type { VisitLinkReading } from '../../shared/visit-link';
import type { VisitPatient } from '../../shared/contract/notes';
import { UserFacingError } from './user-facing-error';
import { ServiceCallError } from './service/service-error';
import { SETTING_LABELS, type Settings } from '../../shared/settings';
import { createContractRouter, type ContractRouter } from './contract-router';
import { createChunkIntake } from './encounter/chunk-intake';
import { createEncounterController } from './encounter/encounter-controller';
import { paceRecorderViews } from './encounter/recorder-view-pacing';
import { createServiceSessions } from './encounter/service-session';
import { createEventHub, type EventHub } from './event-hub';
import { createEncounterHistory } from './history/encounter-history';
import { forgetAudio, reconcileHistory, repairSpoolManifests } from './history/history-after-restart';
import { createJsonFileStorage } from './json-file-storage';
import { createSecretValues, rememberingSecretBox, type SecretValues } from './logging/secret-values';
import { sweepAudioSpools } from './spool/audio-spool';
import { loadSpoolKey } from './spool/spool-key';
import type { Clock, JsonStorage, Logger } from './ports';
import type { RecorderTiming } from './recorder/recorder-types';
import type { SecretBox } from './secrets/secret-box';
import { bindLegacySecrets, credentialPlaces } from './secrets/bound-secrets';
import { partnerTokenVerbs, storePolicyPartnerToken } from './secrets/partner-token-verbs';
import { createServiceLocator } from './service/service-locator';
import { createSettingsService, type SettingsService } from './settings-service';
import { describePolicyProblems, type PolicyReading } from './startup/policy-file';
import { checkLinkProvider } from './visit-links/link-provider';
import { createVisitLinkInbox } from './visit-links/visit-link-inbox';
import { createNoteDraftStore } from './notes/note-draft-store';
import { createVisitNotes, noteVerbs } from './notes/visit-notes';
import { createClinicianVisits } from './privacy/clinician-visits';
import { createActingClinician } from './privacy/acting-clinician';
import { deliveryTargetOf } from './encounter/service-session';
import { createUnlockPins } from './privacy/unlock-pins';
import { createWindowPrivacy } from './privacy/window-privacy';

export interface AppCoreDeps {
  settingsStorage: JsonStorage;
  /** Partner token and OIDC refresh token: safeStorage in Electron, a 0600 file in browser mode. */
  secrets: SecretBox;
  /** Facts about the running app that only the shell knows (mode, versions, data directory). */
  appInfo: AppInfo;
  /** Already scrubbed (logging/scrubbed-logger.ts) by the shell, with `secretValues`. */
  log: Logger;
  /**
   * The secret values the shell's scrubbed logger redacts wherever they appear; the core adds
   * each one it learns (partner, refresh, ID and service tokens, the spool key, the webhook
   * secret). Tests that do not read the log may leave it out.
   */
  secretValues?: SecretValues;
  clock: Clock;
  /**
   * Electron: shell.openExternal for the sign-in page. Absent in browser mode, where the renderer
   * gets an auth.openUrl event and opens a tab (the "system browser" of browser mode).
   */
  openExternal?: (url: string) => Promise<void>;
  /** How often the core tells the renderer it is alive. */
  heartbeatIntervalMs?: number;
  /** The organisation's policy file as read at start (startup/policy-file.ts); none when absent. */
  policy?: PolicyReading;
  /** The operating system's user name, for a policy's provider ID written `{username}`. */
  username?: string;
  /** Tests shrink the recorder's timers. */
  recorderTiming?: Partial<RecorderTiming>;
  /** Tests stretch results polling (see the notification receiver test). */
  resultsPolling?: { firstDelayMs?: number; maxDelayMs?: number };
}

export interface AppCore {
  router: ContractRouter;
  events: EventHub;
  settings: SettingsService;
  /**
   * One captured chunk message from the renderer's one-way chunk channel (an ArrayBuffer, a
   * Uint8Array or a Node Buffer, depending on the transport). A refused chunk is reported with a
   * recorder.chunkRefused event, since chunks have no reply.
   */
  acceptChunk(message: unknown): void;
  /**
   * The renderer that captured the audio went away (its page is reloading or navigating, its
   * process is gone, its socket closed). A visit being recorded keeps recording: the new page
   * rejoins it with recorder.attach, and until then the gap is not a microphone stall.
   */
  rendererDetached(): void;
  /**
   * The computer woke from sleep (or its network came back): streams reconnect now, and visits
   * waiting to finish try again now.
   */
  wake(): void;
  /** The computer is about to sleep: the audio spooled so far is made durable now. */
  suspend(): void;
  /**
   * A visit link from the EHR (`ambient-scribe://visit?…`: the command line, a second launch,
   * macOS open-url): the window opens its visit, or keeps it as the next one while a visit
   * records. Answers what was read, so a second launch can say what was wrong with it.
   */
  openVisitLink(url: string): VisitLinkReading;
  stop(): Promise<void>;
}

export const DEFAULT_HEARTBEAT_MS = 2_000;

/** A delivered visit's audio stays this long (then the sweep deletes it); settings say the most. */
export const DELIVERED_AUDIO_GRACE_MS = 10 * 60_000;
const DAY_MS = 24 * 3_600_000;
/**
 * How often the core sweeps old audio and tries again to finish visits that were finishing when
 * the app stopped (the service may be back, or the clinician signed in meanwhile).
 */
export const MAINTENANCE_INTERVAL_MS = 60_000;

/** Everything main does, wired from its ports; both shells (Electron and browser mode) call this. */
export async function createAppCore(shellDeps: AppCoreDeps): Promise<AppCore> {
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
  const events = createEventHub();
  // Loaded once; a failed load (keychain locked) is tried again at the next visit.
  let spoolKey: Promise<Uint8Array> | undefined;
  const loadKey = () =>
    (spoolKey ??= loadSpoolKey(deps.secrets).catch((error: unknown) => {
      spoolKey = undefined;
      throw error;
    }));
  const locator = createServiceLocator({
    dataDirectory: deps.appInfo.dataDirectory,
    log: deps.log,
    spoolKey: loadKey,
  });
  const clinician = createActingClinician(settings);
  const { acting } = clinician;
  const signOutGate = clinician.gate;
  const authStatus = async () => clinician.shown(await sessions.status(acting()));
  const clinicianVisits = createClinicianVisits({ providerId: clinician.visitsProviderId });
  const sessions = createServiceSessions({
    locator,
    secrets: deps.secrets,
    secretValues,
    clock: deps.clock,
    log: deps.log,
    openExternal: deps.openExternal ?? (async (url) => events.emit('auth.openUrl', { url })),
    onAuthChange: (status) => {
      const changed = clinician.observe(status);
      events.emit('auth.changed', clinician.shown(status));
      // Another clinician now: History shows theirs alone, and they may need a PIN.
      if (changed) {
        events.emit('history.changed', { entries: myHistory() });
        privacy
          .clinicianChanged()
          .catch((error: unknown) =>
            deps.log.warn('privacy: the lock could not be checked', { error: (error as Error).name }),
          );
      }
    },
    onNotification: (sessionId) => encounters.wake(sessionId),
  });
  const history = await createEncounterHistory({
    storage: createJsonFileStorage(join(deps.appInfo.dataDirectory, 'history.json'), deps.log),
    log: deps.log,
    onChange: (entries) => events.emit('history.changed', { entries: clinicianVisits.visible(entries) }),
  });
  const myHistory = () => clinicianVisits.visible(history.list());
  // Visits' audio, encrypted (spool/): delivered audio goes after a grace period, all of it after
  // the retention the settings give (a week unless changed).
  const spoolRoot = join(deps.appInfo.dataDirectory, 'spool');
  const encounters = createEncounterController({
    clock: deps.clock,
    log: deps.log,
    ...(deps.recorderTiming ? { recorderTiming: deps.recorderTiming } : {}),
    ...(deps.resultsPolling ? { resultsPolling: deps.resultsPolling } : {}),
    // About once a second while recording, at once on any change the window shows.
    onRecorderChange: paceRecorderViews((view) => events.emit('recorder.changed', view)),
    onResultsProgress: (progress) => events.emit('results.progress', progress),
    onVisit: (entry) => history.record(entry),
    spool: { root: spoolRoot, key: loadKey },
  });
  const session = () => sessions.get(acting());
  // The clinician's note edits (issue 29), sealed, for the provider signed in alone.
  const notes = createVisitNotes({
    store: createNoteDraftStore({
      dir: join(deps.appInfo.dataDirectory, 'notes'),
      spoolKey: loadKey,
      log: deps.log,
      now: () => deps.clock.now(),
    }),
    history,
    requireMine: (entry) => clinicianVisits.requireMine(entry),
    owner: async () => {
      signOutGate.refuseWhileSignedOut('see and keep your edits of this note');
      const current = await session();
      if (!current.auth.status().signedIn)
        throw new UserFacingError('invalid_request', 'Sign in to see and keep your edits of this note.');
      return deliveryTargetOf(current);
    },
    clock: deps.clock,
    log: deps.log,
  });
  const pins = createUnlockPins({ secrets: deps.secrets, log: deps.log, now: () => deps.clock.now() });
  const privacy = createWindowPrivacy({
    gate: signOutGate,
    pins,
    storage: createJsonFileStorage(join(deps.appInfo.dataDirectory, 'privacy.json'), deps.log),
    clinician: () => clinician.here(),
    reauthenticate: async (providerId) => (await session()).auth.reauthenticate(providerId),
    recording: () => encounters.isStarting() || RECORDING_STATES.has(encounters.view().state),
    forgetHeld: () => notes.forgetHeld(),
    signOut: () => signOut(),
    onChange: (status) => events.emit('privacy.changed', status),
    log: deps.log,
    now: () => deps.clock.now(),
  });
  // Before anything is sent on anyone's behalf: the last run's lock and sign-out hold.
  await privacy.restore();
  repairSpoolManifests(history, spoolRoot, deps.clock.now(), deps.log);
  reconcileHistory(history, encounters.spooled.list());
  const sweep = () => {
    const removed = sweepAudioSpools(spoolRoot, deps.clock.now(), {
      graceMs: DELIVERED_AUDIO_GRACE_MS,
      maxAgeMs: settings.get().audioRetentionDays * DAY_MS,
      // A visit recording or on its way to the service keeps its audio, however old.
      inUse: (sessionId) => encounters.inUse(sessionId),
    });
    if (removed.length > 0) deps.log.info('spool: removed old visit audio', { visits: removed.length });
    // Unfinished edits are kept no longer than unfinished audio (the same retention).
    const edits = notes.sweep(settings.get().audioRetentionDays * DAY_MS);
    if (edits.length > 0) deps.log.info('notes: removed old note edits', { visits: edits.length });
    for (const sessionId of removed) forgetAudio(history, sessionId);
    // The built-in demo keeps a visit (its audio, context, note) no longer than its spool is here.
    void locator
      .forgetDemoSessions(
        (sessionId) =>
          encounters.isStarting() || encounters.inUse(sessionId) || existsSync(join(spoolRoot, sessionId)),
      )
      .then(
        (forgotten) => {
          if (forgotten.length === 0) return;
          deps.log.info('demo: removed visits whose audio is gone', { visits: forgotten.length });
          // Its note cannot be opened any more: nothing of it stays here either (edits, patient).
          for (const sessionId of forgotten) {
            try {
              notes.forget(sessionId);
            } catch {
              // Not a visit's name (a stray file in the demo's folder): nothing of a note to forget.
            }
          }
        },
        (error: unknown) =>
          deps.log.warn('demo: removing old visits failed', { error: (error as Error).name }),
      );
  };
  /** Visits that were finishing when the app stopped: on their way again once the service answers. */
  let stopped = false;
  const resumeFinishing = async () => {
    // Signed out or locked: nothing is sent on the clinician's behalf until they are back.
    if (!signOutGate.open()) return;
    const current = await session().catch(() => undefined);
    // Signed in (or able to sign in by itself) and the service reachable: a token says both.
    const reachable = await current?.auth.current().then(
      () => true,
      () => false,
    );
    if (current && reachable && !stopped) await encounters.spooled.resumeFinishing(current);
  };
  const maintain = () => {
    try {
      sweep();
    } catch (error) {
      deps.log.warn('spool: sweep failed', { error: (error as Error).name });
    }
    void resumeFinishing();
  };
  maintain();
  const stopMaintenance = deps.clock.every(MAINTENANCE_INTERVAL_MS, maintain);
  const unfinished = (sessionId: string) => {
    const entry = history.find(sessionId);
    if (entry) clinicianVisits.requireMine(entry);
    const visit = encounters.spooled.list().find((v) => v.sessionId === sessionId);
    if (!visit) throw new UserFacingError('invalid_request', 'This visit has nothing left to finish.');
    return visit;
  };
  const visitLinks = createVisitLinkInbox({
    today: () => localIsoDate(new Date(deps.clock.now())),
    log: deps.log,
    onChange: (links) => events.emit('visitLinks.changed', links),
    recording: () => encounters.isStarting() || RECORDING_STATES.has(encounters.view().state),
    checkProvider: (providerId) =>
      checkLinkProvider(providerId, clinician.linkFacts(policy?.policy.linksMaySwitchProvider === true)),
    switchProvider: async (providerId) => {
      clinician.switchTo(providerId);
      await privacy.clinicianChanged();
      // Signed in as the link's provider now, so the window shows who it acts as.
      await (await session()).auth.current().catch(() => undefined);
    },
  });
  const signOut = async () => {
    await privacy.signedOut();
    await (await session()).auth.signOut();
    visitLinks.clear();
    notes.forgetHeld();
    // A provider a link switched to was for that clinician's run: the next one is the settings'.
    clinician.endSwitch();
  };
  const router = createContractRouter(
    {
      'app.info': () => deps.appInfo,
      'settings.get': () => settings.get(),
      'settings.set': async (patch) => {
        // Who signs in is not changed behind a locked window: its clinician unlocks first.
        if (signOutGate.locked() && IDENTITY_SETTINGS.some((key) => key in patch))
          throw new UserFacingError(
            'invalid_request',
            'This window is locked: unlock it to change who signs in.',
          );
        const saved = await settings.update(patch);
        // Who the app is, set by hand, ends a switch a link made.
        if (IDENTITY_SETTINGS.some((key) => key in patch)) {
          clinician.endSwitch({ forgetStatus: true });
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
        onEntered: (service, partnerId) =>
          void (async () => {
            const current = await session();
            if (current.connection.service !== service) return;
            // The service takes the token: a sign-in with it (undone for a window its clinician
            // signed out of, which stays signed out).
            const signedOut = signOutGate.signedOut();
            const status = await current.auth.signIn();
            // Unless the clinician pressed Sign in meanwhile.
            if (signedOut && signOutGate.signedOut()) await current.auth.signOut();
            if (!status.signedIn) throw new Error('the partner token was not taken');
            await pins.clearBlocked(service, partnerId);
            await privacy.changed();
          })().catch((error: unknown) =>
            deps.log.info('privacy: blocked PINs stay blocked: the partner token was not taken', {
              error: (error as Error).name,
            }),
          ),
      }),
      'auth.status': () => authStatus(),
      'auth.signIn': async () => {
        // The first Sign in after a Sign out: whoever is at the keyboard proves it at the IdP.
        const afterSignOut = signOutGate.signedOut();
        // A clinician with a PIN here signs in to a locked window, which asks for it.
        await privacy.signIn();
        const current = await session();
        // The status says what went wrong.
        await current.auth.signIn({ freshLogin: afterSignOut }).catch(() => undefined);
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
        signOutGate.refuseWhileSignedOut('record');
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
      'recorder.state': () => encounters.view(),
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
      'results.get': async ({ sessionId }) => {
        signOutGate.refuseWhileSignedOut('open a visit');
        if (encounters.has(sessionId)) return encounters.results(sessionId);
        const entry = history.find(sessionId);
        if (!entry)
          throw new UserFacingError('invalid_request', 'This app has no results for that recording.');
        clinicianVisits.requireMine(entry);
        return encounters.reopen(entry, await session());
      },
      'history.list': () => ({ entries: myHistory() }),
      'history.finish': async ({ sessionId }) => {
        signOutGate.refuseWhileSignedOut('finish a visit');
        await encounters.spooled.finish(unfinished(sessionId), await session());
        return undefined;
      },
      'history.discard': async ({ sessionId }) => {
        signOutGate.refuseWhileSignedOut('discard a visit');
        encounters.spooled.discard(unfinished(sessionId));
        notes.forget(sessionId);
        return undefined;
      },
      'forms.templates': async () => {
        signOutGate.refuseWhileSignedOut('see the forms');
        return (await session()).rest.formTemplates();
      },
      'forms.feedback': async ({ sessionId, formId, feedback }) => {
        signOutGate.refuseWhileSignedOut('send feedback');
        await (await session()).rest.sendFormFeedback(sessionId, formId, feedback);
        return undefined;
      },
      ...noteVerbs(notes),
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
        // Another clinician, signed in for a link, only by someone signed in and unlocked.
        if (switchProvider) signOutGate.refuseWhileSignedOut('sign in as the link’s provider');
        return visitLinks.take(id, switchProvider === undefined ? {} : { switchProvider });
      },
      'visitLinks.decline': ({ id }) => {
        visitLinks.decline(id);
        return undefined;
      },
    },
    deps.log,
    { ...SETTING_LABELS, ...ENCOUNTER_LABELS },
  );

  let seq = 0;
  const stopHeartbeat = deps.clock.every(deps.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_MS, () => {
    events.emit('heartbeat', { seq: seq++, at: deps.clock.now() });
  });

  return {
    router,
    events,
    settings,
    acceptChunk: createChunkIntake({ record: (chunk) => encounters.chunk(chunk), events, log: deps.log }),
    rendererDetached() {
      encounters.captureDetached();
    },
    wake() {
      encounters.reconnectAll();
      maintain();
    },
    suspend() {
      encounters.flushSpools();
    },
    openVisitLink: (url) => visitLinks.open(url),
    async stop() {
      stopped = true;
      stopHeartbeat();
      stopMaintenance();
      encounters.dispose();
      sessions.dispose();
      await history.flush();
      await locator.close();
      deps.log.info('app: stopped');
    },
  };
}

/**
 * The organisation requires the patient's consent before recording (issue 29): a Start without it
 * is refused by name, whatever the window did.
 */
function refuseWithoutConsent(request: StartEncounter, mode: Settings['consent']): void {
  if (mode !== 'required' || request.consent) return;
  throw new UserFacingError(
    'invalid_request',
    'Patient consent is required before recording: check that the patient agreed, then press Start recording.',
    [{ field: 'consent', message: 'Patient consent is required before recording.' }],
  );
}

/** The patient details an ambient visit is recorded with, as the note's header names them. */
function patientOf(request: StartEncounter): VisitPatient | undefined {
  const info = request.kind === 'ambient' ? request.context?.patient_info : undefined;
  if (info?.date_of_birth === undefined && info?.sex === undefined) return undefined;
  return {
    ...(info.date_of_birth !== undefined ? { dateOfBirth: info.date_of_birth } : {}),
    ...(info.sex !== undefined ? { sex: info.sex } : {}),
  };
}

/** Settings that say which service and who the app is there: setting one ends a link's switch. */
const IDENTITY_SETTINGS = ['service', 'partnerId', 'authModel', 'providerId'] as const;

/**
 * A visit that could not start: nothing was recorded yet, so the next step is to press Start
 * again (service-error.ts's general sentences speak of a recording that continues).
 */
function asStartProblem(error: ServiceCallError): ServiceCallError {
  const sentence =
    error.status === 0
      ? 'The documentation service cannot be reached, so the visit did not start. Check the network connection, then press Start recording again.'
      : error.status >= 500
        ? 'The documentation service had a problem starting the visit. Press Start recording again in a moment; if it keeps happening, tell your IT admin.'
        : undefined;
  return sentence ? new ServiceCallError(error.status, error.id, sentence, error.serviceMessage) : error;
}
