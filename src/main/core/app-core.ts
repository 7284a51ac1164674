import { join } from 'node:path';
import { ENCOUNTER_LABELS, RECORDING_STATES, type AppInfo } from '../../shared/contract';
import { localIsoDate } from '../../shared/local-date';
import type { VisitLinkReading } from '../../shared/visit-link';
import { UserFacingError } from './user-facing-error';
import { SETTING_LABELS } from '../../shared/settings';
import { createContractRouter, type ContractRouter } from './contract-router';
import { coreVerbs } from './contract-verbs';
import { createChunkIntake } from './encounter/chunk-intake';
import { createEncounterController } from './encounter/encounter-controller';
import { paceRecorderViews } from './encounter/recorder-view-pacing';
import { createServiceSessions } from './encounter/service-session';
import { createEventHub, type EventHub } from './event-hub';
import { createEncounterHistory } from './history/encounter-history';
import { reconcileHistory, repairSpoolManifests } from './history/history-after-restart';
import { createJsonFileStorage } from './json-file-storage';
import type { SecretValues } from './logging/secret-values';
import { startMaintenance } from './maintenance';
import { loadSpoolKey } from './spool/spool-key';
import { createVisitSeal, UNAVAILABLE_VISIT_SEAL, type VisitSeal } from './sealed/visit-seal';
import type { Clock, JsonStorage, Logger } from './ports';
import type { RecorderTiming } from './recorder/recorder-types';
import { OIDC_SUBJECT_NAME, SECRET_NAMES, type SecretBox } from './secrets/secret-box';
import { createServiceLocator } from './service/service-locator';
import type { SettingsService } from './settings-service';
import type { PolicyReading } from './startup/policy-file';
import { prepareStart } from './startup/prepare-start';
import { checkLinkProvider } from './visit-links/link-provider';
import { createVisitLinkInbox } from './visit-links/visit-link-inbox';
import { createNoteDraftStore } from './notes/note-draft-store';
import { createVisitNotes } from './notes/visit-notes';
import { createClinicianVisits } from './privacy/clinician-visits';
import { createVerbGatekeeper } from './privacy/verb-gatekeeper';
import { createActingClinician } from './privacy/acting-clinician';
import { deliveryTargetOf } from './encounter/service-session';
import { sameAccount } from '../../shared/delivery-target';
import { failClosedOnMissingPin } from './privacy/missing-pin';
import { createUnlockPins } from './privacy/unlock-pins';
import { pinGenerationFile } from './privacy/pin-generation';
import { recordGenerationFile } from './sealed/record-generation';
import { sealedJsonStorage } from './sealed/sealed-json-storage';
import { gateEvents } from './privacy/event-gatekeeper';
import { createWindowPrivacy } from './privacy/window-privacy';
import { createReplay } from './replay/replay-verbs';

export { DELIVERED_AUDIO_GRACE_MS, MAINTENANCE_INTERVAL_MS } from './maintenance';

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

/** Everything main does, wired from its ports; both shells (Electron and browser mode) call this. */
export async function createAppCore(shellDeps: AppCoreDeps): Promise<AppCore> {
  const { deps, secretValues, policy, settings } = await prepareStart(shellDeps);
  const clinician = createActingClinician(settings);
  // An event that carries a visit goes to nobody while the window is signed out or locked.
  const events = gateEvents(createEventHub(), () => clinician.gate.open());
  // Loaded once; a failed load (keychain locked) is tried again at the next visit.
  let spoolKey: Promise<Uint8Array> | undefined;
  // What vouches for each visit's owner and consent (sealed/visit-seal.ts): made with the spool
  // key once it loads; until then one that opens nothing (every visit nobody's).
  let visitSeal: VisitSeal = UNAVAILABLE_VISIT_SEAL;
  const loadKey = () =>
    (spoolKey ??= loadSpoolKey(deps.secrets).then(
      (key) => {
        visitSeal = createVisitSeal(key);
        return key;
      },
      (error: unknown) => {
        spoolKey = undefined;
        throw error;
      },
    ));
  const locator = createServiceLocator({
    dataDirectory: deps.appInfo.dataDirectory,
    log: deps.log,
    spoolKey: loadKey,
  });
  const { acting } = clinician;
  // Set once everything it reads exists; the lock may open before (privacy.restore()).
  let sendWhatWasWithheld = (): void => undefined;
  const signOutGate = clinician.gate;
  const authStatus = async () => clinician.shown(await sessions.status(acting()));
  const clinicianVisits = createClinicianVisits({ owner: clinician.visitsOwner });
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
      // Another clinician now: they may need a PIN; History, theirs alone, follows once the lock
      // is settled (privacy's onChange), so a clinician locked out of it is never sent it.
      if (changed) {
        privacy
          .clinicianChanged()
          .catch((error: unknown) =>
            deps.log.warn('privacy: the lock could not be checked', { error: (error as Error).name }),
          );
      }
    },
    onNotification: (sessionId) => encounters.wake(sessionId),
  });
  // History reads its seals as it loads: the key first (a keychain that does not answer leaves
  // every visit nobody's until the key loads, at the next visit's Start).
  await loadKey().catch((error: unknown) =>
    deps.log.warn('visits: the spool key is not available; no visit opens until it is', {
      error: (error as Error).name,
    }),
  );
  const history = await createEncounterHistory({
    storage: createJsonFileStorage(join(deps.appInfo.dataDirectory, 'history.json'), deps.log),
    log: deps.log,
    visitSeal: () => visitSeal,
    onChange: (entries) => events.emit('history.changed', { entries: clinicianVisits.visible(entries) }),
  });
  const myHistory = () => clinicianVisits.visible(history.list());
  // Visits' audio, encrypted (spool/): delivered audio goes after a grace period, all of it after
  // the retention the settings give (a week unless changed); maintenance.ts sweeps it.
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
    spool: { root: spoolRoot, key: loadKey, visitSeal: () => visitSeal },
  });
  const session = () => sessions.get(acting());
  const replay = createReplay({
    spoolRoot,
    spoolKey: loadKey,
    settings,
    gate: signOutGate,
    history,
    requireMine: (entry) => clinicianVisits.requireMine(entry),
    inUse: (sessionId) => encounters.inUse(sessionId),
    signedIn: async () => (await session()).auth.status().signedIn,
    now: () => deps.clock.now(),
    log: deps.log,
  });
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
    // In the EHR: the recording goes with the edits (Undo does not bring it back).
    beforeFinished: (sessionId) => replay.deleteAtFinished(sessionId),
    clock: deps.clock,
    log: deps.log,
  });
  const pins = failClosedOnMissingPin(
    createUnlockPins({
      secrets: deps.secrets,
      // Outside the secret box, sealed: an older copy of the box is told from the last one written.
      generation: pinGenerationFile(join(deps.appInfo.dataDirectory, 'pin-generation'), loadKey),
      log: deps.log,
      now: () => deps.clock.now(),
    }),
    {
      // Any visit of theirs here, under whichever sign-in model: more visits, more often blocked.
      visitsHere: (clinician) =>
        history
          .list()
          .some((entry) => entry.deliverTo !== undefined && sameAccount(entry.deliverTo, clinician)),
      log: deps.log,
    },
  );
  const privacy = createWindowPrivacy({
    gate: signOutGate,
    pins,
    // Sealed and counted: a copy edited, or put back from before, reads as missing (fails closed).
    storage: sealedJsonStorage(
      createJsonFileStorage(join(deps.appInfo.dataDirectory, 'privacy.json'), deps.log),
      {
        purpose: 'privacy record',
        spoolKey: loadKey,
        generation: recordGenerationFile(join(deps.appInfo.dataDirectory, 'privacy-generation'), loadKey, {
          purpose: 'privacy generation',
          name: 'privacy record',
        }),
        log: deps.log,
      },
    ),
    clinician: () => clinician.here(),
    reauthenticate: async (providerId) => (await session()).auth.reauthenticate(providerId),
    recording: () => encounters.isStarting() || RECORDING_STATES.has(encounters.view().state),
    forgetHeld: () => notes.forgetHeld(),
    signOut: () => signOut(),
    storedSignIn: async () => {
      if (!(await deps.secrets.get(SECRET_NAMES.oidcRefreshToken))) return undefined;
      const subject = await deps.secrets.get(OIDC_SUBJECT_NAME);
      return subject ? { subject } : {};
    },
    onChange: (status) => {
      events.emit('privacy.changed', status);
      if (!status.locked) sendWhatWasWithheld();
    },
    log: deps.log,
    now: () => deps.clock.now(),
  });
  // Before anything is sent on anyone's behalf: the last run's lock and sign-out hold.
  await privacy.restore();
  repairSpoolManifests(history, spoolRoot, deps.clock.now(), deps.log);
  reconcileHistory(history, encounters.spooled.list());
  const maintenance = startMaintenance({
    spoolRoot,
    clock: deps.clock,
    log: deps.log,
    settings,
    encounters,
    notes,
    history,
    locator,
    signOutGate,
    session,
  });
  const { maintain, resumeFinishing } = maintenance;
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
  /**
   * The window open (again): History and the links as they stand now, for the clinician it acts
   * for now, since events that carry them were withheld while it was locked or signed out. (Read
   * anew, never replayed: what was withheld may have been meant for someone else.)
   */
  sendWhatWasWithheld = () => {
    events.emit('history.changed', { entries: myHistory() });
    events.emit('visitLinks.changed', visitLinks.links());
  };
  const signOut = async () => {
    await privacy.signedOut();
    await (await session()).auth.signOut();
    visitLinks.clear();
    notes.forgetHeld();
    // A provider a link switched to was for that clinician's run: the next one is the settings'.
    clinician.endSwitch();
  };
  const router = createContractRouter(
    coreVerbs({
      deps,
      settings,
      clinician,
      signOutGate,
      session,
      authStatus,
      signOut,
      privacy,
      pins,
      encounters,
      notes,
      history,
      clinicianVisits,
      myHistory,
      resumeFinishing,
      visitLinks,
      replay,
    }),
    createVerbGatekeeper({
      gate: signOutGate,
      history,
      requireMine: (entry) => clinicianVisits.requireMine(entry),
      pinMissing: () => privacy.pinMissing(),
    }),
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
      maintenance.stop();
      stopHeartbeat();
      encounters.dispose();
      sessions.dispose();
      await history.flush();
      await locator.close();
      deps.log.info('app: stopped');
    },
  };
}
