import { join } from 'node:path';
import type { StartEncounter } from '../../../shared/contract';
import type { DeliveryTarget } from '../../../shared/delivery-target';
import type { Clock, Logger } from '../ports';
import { createRecorder, type Recorder } from '../recorder/recorder';
import type { RecorderTiming } from '../recorder/recorder-types';
import { createAudioSpool, type AudioSpool } from '../spool/audio-spool';
import { spooledAudioLog } from '../spool/spooled-audio-log';
import { createStreamClient, type StreamClient } from '../stream/stream-client';
import type { ServiceSession } from './service-session';

/** One service session fed the visit's audio: its own recorder, stream and spool. */
export interface Leg {
  kind: StartEncounter['kind'];
  sessionId: string;
  recorder: Recorder;
  stream: StreamClient;
  /** The leg's audio on disk, when the core keeps a spool (issue 7). */
  spool?: AudioSpool;
}

export interface LegOptions {
  kind: Leg['kind'];
  sessionId: string;
  session: ServiceSession;
  clock: Clock;
  log: Logger;
  timing: Partial<RecorderTiming>;
  /** Where and with which key the leg's audio is spooled; without it, memory only (unit tests). */
  spool?: {
    root: string;
    key: Uint8Array;
    encounterId: string;
    visitSessionId?: string | undefined;
    /** The service and account the visit is recorded for: its audio goes nowhere else. */
    deliverTo: DeliveryTarget;
    /** Its owner and consent, sealed (visit-seal.ts): what the manifest's readers believe. */
    sealed: string | undefined;
  };
  /** The disk refused the leg's audio: the rest is kept in memory (spooled-audio-log.ts). */
  onDiskFailure(): void;
}

/** A leg ready to record: its spool (under `<root>/<session id>`), stream and recorder. */
export function openLeg(options: LegOptions): Leg {
  const { kind, sessionId, session, clock, log } = options;
  const spool = options.spool
    ? createAudioSpool({
        dir: join(options.spool.root, sessionId),
        key: options.spool.key,
        sessionId,
        encounterId: options.spool.encounterId,
        kind,
        visitSessionId: options.spool.visitSessionId,
        deliverTo: options.spool.deliverTo,
        sealed: options.spool.sealed,
        now: () => clock.now(),
      })
    : undefined;
  const stream = createStreamClient({
    endpoint: session.connection.endpoint,
    sessionId,
    tokens: session.auth,
    clock,
    log,
    ...(spool ? { audioLog: spooledAudioLog(spool, { onWriteFailure: options.onDiskFailure }) } : {}),
  });
  const recorder = createRecorder({
    stream,
    clock,
    log,
    timing: options.timing,
    // Kept with the audio, so a visit finished by a later run still maps its transcript's times.
    ...(spool ? { onVisitClock: (visitClock) => void spool.setVisitClock(visitClock) } : {}),
  });
  return { kind, sessionId, recorder, stream, ...(spool ? { spool } : {}) };
}

/** A leg's recorder, stream and open spool segment, once nothing more goes through them. */
export function releaseLeg(leg: Leg): void {
  leg.recorder.dispose();
  leg.stream.dispose();
  leg.spool?.close();
}
