import type { PAUSE_REASONS } from '../../../shared/contract';
import type { Logger } from '../ports';
import type { StreamLinkState } from '../stream/stream-port';
import type { RecorderState } from './recorder-types';

/**
 * Why the recorder is not sending audio right now (the contract's PAUSE_REASONS):
 * - manual: the clinician pressed pause (privacy): audio is dropped, only resume() continues;
 * - no-speech: the VAD heard no speech for autoPauseAfterMs: resumes by itself on speech;
 * - mic-stopped: no chunk arrived for captureStallMs: resumes on the next chunk, speech or not;
 * - pause-limit: the pause reached abortPauseAfterMs: the stream was ABORTed and reconnects on resume.
 */
export type PauseReason = (typeof PAUSE_REASONS)[number];

/** Everything the UI shows about a recording; a new object on every change. */
export interface RecorderSnapshot {
  state: RecorderState;
  /**
   * Set while a pause is in force, also when the link is down meanwhile (state reconnecting or
   * offline shows the link; this still says the recording is paused and why). Null otherwise.
   */
  pauseReason: PauseReason | null;
  /** Captured visit audio, ms: every chunk since start() except those dropped by a manual pause. */
  elapsedMs: number;
  /** The VAD's verdict on the latest chunk (false once the microphone stalls). */
  speech: boolean;
  /** The stream's link, so the UI can say "finishing when online" while ending. */
  link: StreamLinkState | null;
  bytesAppended: number;
  bytesAcked: number;
  /** Audio handed to the stream that the service has not acknowledged yet, ms. */
  backlogMs: number;
  /** Why the recording failed (state failed), in words fit for the clinician. */
  failure: { reason: string; closeCode?: number } | null;
  /**
   * Time of the visit no audio came for while its capture rejoined (a reload, a renderer restart):
   * from the last chunk of the page that went to the first of the page that came, less that chunk.
   */
  missingAudioMs: number;
}

export function sameSnapshot(a: RecorderSnapshot, b: RecorderSnapshot): boolean {
  return (
    a.state === b.state &&
    a.pauseReason === b.pauseReason &&
    a.elapsedMs === b.elapsedMs &&
    a.speech === b.speech &&
    a.link === b.link &&
    a.bytesAppended === b.bytesAppended &&
    a.bytesAcked === b.bytesAcked &&
    a.failure?.reason === b.failure?.reason &&
    a.failure?.closeCode === b.failure?.closeCode &&
    a.missingAudioMs === b.missingAudioMs
  );
}

const PAUSE_WORDS: Record<PauseReason, string> = {
  manual: 'Paused by you. Nothing is recorded until you resume.',
  'no-speech': 'Paused while no one is speaking. Recording resumes when someone speaks.',
  'mic-stopped':
    'Waiting for the microphone: no sound has come from it for 5 seconds. Check that it is connected; recording goes on as soon as it sends sound.',
  'pause-limit':
    'Paused for a long time, so the connection was closed. Resuming reconnects; nothing is lost.',
};

/** The sentence the UI shows beside the state (the contract's `reason`), when there is one. */
export function describeRecorder(snapshot: RecorderSnapshot): string | undefined {
  if (snapshot.state === 'failed') return snapshot.failure?.reason;
  if (snapshot.state === 'ending' && (snapshot.link === 'offline' || snapshot.link === 'reconnecting')) {
    return 'Finishing when online: the rest of the visit is saved and is sent when the connection returns.';
  }
  if (snapshot.pauseReason) return PAUSE_WORDS[snapshot.pauseReason];
  return undefined;
}

/** Words for a close the stream client gave no reason for. */
export function describeStreamClose(closeCode: number | undefined): string {
  if (closeCode === 4009) return 'The service closed the stream after a 30-minute pause.';
  return closeCode === undefined
    ? 'The service closed the stream.'
    : `The service closed the stream (code ${closeCode}).`;
}

/** Hands each changed snapshot to the listeners, once; one failing listener does not stop the rest. */
export class SnapshotEmitter {
  private last: RecorderSnapshot | null = null;
  private readonly listeners = new Set<(snapshot: RecorderSnapshot) => void>();

  constructor(private readonly log: Logger) {}

  subscribe(listener: (snapshot: RecorderSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(next: RecorderSnapshot): void {
    const previous = this.last;
    if (previous && sameSnapshot(previous, next)) return;
    this.last = next;
    if (previous?.state !== next.state) {
      this.log.info('recorder: state', {
        from: previous?.state ?? 'idle',
        to: next.state,
        pause: next.pauseReason,
        link: next.link,
      });
    }
    for (const listener of [...this.listeners]) {
      try {
        listener(next);
      } catch (error) {
        this.log.error('recorder: a state listener failed', { error: String(error) });
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
