import { VisitClockBuilder, type VisitClock } from '../../../shared/visit-clock';
import type { Clock, Logger } from '../ports';
import type { StreamLinkChange, StreamPort } from '../stream/stream-port';
import { PCM_BYTES_PER_MS, pcmDurationMs } from './audio-duration';
import { AudioGaps } from './audio-gaps';
import { PreRollBuffer } from './pre-roll-buffer';
import {
  type CapturedChunk,
  DEFAULT_RECORDER_TIMING,
  type RecorderState,
  type RecorderTiming,
  type VisitChunk,
} from './recorder-types';
import { CaptureWatchdog, PauseTimers, TimerSlot } from './recorder-timers';
import {
  describeStreamClose,
  type PauseReason,
  type RecorderSnapshot,
  SnapshotEmitter,
} from './recorder-view';
import { ServiceLink } from './service-link';

export interface RecorderOptions {
  stream: StreamPort;
  clock: Clock;
  log: Logger;
  timing?: Partial<RecorderTiming>;
  /**
   * The visit clock gained a stretch (see `visitClock`): called before that stretch's first audio
   * goes to the stream, so whatever keeps the clock beside the audio (the spool) never holds audio
   * its clock does not place. A few calls a visit: one per gap in the audio sent.
   */
  onVisitClock?(clock: VisitClock): void;
}

export interface Recorder {
  /** The current snapshot (byte counts read from the stream now). */
  readonly state: RecorderSnapshot;
  /**
   * Where the audio handed to the stream was captured on the visit clock (shared/visit-clock.ts):
   * the service's transcript offsets count only what it received.
   */
  readonly visitClock: VisitClock;
  /** Called with every changed snapshot; returns the unsubscribe function. */
  onChange(listener: (snapshot: RecorderSnapshot) => void): () => void;
  start(): void;
  pushChunk(chunk: CapturedChunk): void;
  /**
   * The page that captured the audio went away (reload, renderer crash). Not a stall: the new page
   * gets as long as a fresh start (captureStartMs) to deliver its first chunk; a page that does
   * not come back by then is a stall as before. The service receives nothing for the gap.
   */
  captureDetached(): void;
  /** A new capture (a new page) joins: its chunks number from 0 again. */
  attachCapture(): void;
  pause(): void;
  resume(): void;
  /** EOF after the last audio; resolves once the service has every byte (waits while offline). */
  end(): Promise<void>;
  /** Discards the session at the service. */
  cancel(): Promise<void>;
  /** Stops timers and listening (the app shuts down); the stream is left as it is. */
  dispose(): void;
}

type Lifecycle = 'idle' | 'active' | 'ending' | 'ended' | 'cancelled' | 'failed';

interface Pause {
  kind: 'manual' | 'auto';
  cause: Exclude<PauseReason, 'pause-limit'>;
  /** The pause outlasted abortPauseAfterMs and the stream was ABORTed. */
  limitReached: boolean;
}

/** While ending, nothing else changes the snapshot, but the backlog drains: refresh it this often. */
const ENDING_REFRESH_MS = 500;

/**
 * The recording policy (DESIGN.md "Policy in main, signal in the renderer"): what to send, when to
 * PAUSE/RESUME, KEEP_ALIVE, ABORT and reconnect. Synchronous except end() and cancel(); every
 * timer comes from the injected clock, so the same chunks, commands, link changes and clock give
 * the same stream calls.
 */
export function createRecorder(options: RecorderOptions): Recorder {
  const { stream, clock, log } = options;
  const timing: RecorderTiming = { ...DEFAULT_RECORDER_TIMING, ...options.timing };

  let lifecycle: Lifecycle = 'idle';
  let pause: Pause | null = null;
  let silenceMs = 0;
  let elapsedMs = 0;
  let speech = false;
  let lastSeq: number | null = null;
  /** The visit's time with no audio across rejoins (issue 37: shown and kept in its record). */
  const gaps = new AudioGaps();
  /** The capture sent its final chunk (End): nothing more of it may follow. */
  let captureFinished = false;
  let failure: RecorderSnapshot['failure'] = null;
  let ending: Promise<void> | null = null;

  const service = new ServiceLink(stream, log);
  const emitter = new SnapshotEmitter(log);
  const preRoll = new PreRollBuffer<VisitChunk>(timing.preRollMs);
  const visitClock = new VisitClockBuilder();
  const pauseTimers = new PauseTimers(clock, timing, { onKeepAlive, onPauseLimit });
  const watchdog = new CaptureWatchdog(clock, timing.captureStallMs, onCaptureStall);
  const endingRefresh = new TimerSlot(clock);
  const unsubscribeLink = stream.onLinkChange(onLinkChange);

  function displayState(): RecorderState {
    if (lifecycle !== 'active') return lifecycle;
    const pausedState = pause?.kind === 'manual' ? 'paused' : 'auto-paused';
    // ABORTed on purpose: the clinician should see the pause, not a connection problem.
    if (pause?.limitReached) return pausedState;
    const link = service.state;
    if (link === 'open') return pause ? pausedState : 'streaming';
    if (link === 'reconnecting' || link === 'offline') return link;
    return 'connecting';
  }

  function snapshot(): RecorderSnapshot {
    const { appended, acked } = stream.bytes;
    return {
      state: displayState(),
      pauseReason: pause ? (pause.limitReached ? 'pause-limit' : pause.cause) : null,
      elapsedMs,
      speech,
      link: service.state,
      bytesAppended: appended,
      bytesAcked: acked,
      backlogMs: Math.max(0, appended - acked) / PCM_BYTES_PER_MS,
      failure,
      missingAudioMs: gaps.missingMs,
    };
  }

  function emit(): void {
    emitter.publish(snapshot());
  }

  function send(chunk: VisitChunk): void {
    if (visitClock.appendSent({ visitAtMs: chunk.visitAtMs, durationMs: pcmDurationMs(chunk.pcm) }))
      options.onVisitClock?.(visitClock.clock);
    stream.sendAudio(chunk.pcm);
  }

  function beginPause(kind: Pause['kind'], cause: Pause['cause']): void {
    pause = { kind, cause, limitReached: false };
    silenceMs = 0;
    preRoll.clear();
    watchdog.disarm();
    pauseTimers.start();
    // Not open: nothing to tell now; the PAUSE goes out when a connection opens.
    service.pause();
  }

  /** Back to sending: RESUME (or a fresh connection after the pause limit), then the pre-roll. */
  function leavePause(): void {
    pause = null;
    silenceMs = 0;
    pauseTimers.stop();
    service.resume();
    for (const chunk of preRoll.drain()) send(chunk);
    watchdog.arm();
  }

  function stopEverything(): void {
    pause = null;
    preRoll.clear();
    pauseTimers.stop();
    watchdog.disarm();
    endingRefresh.clear();
    service.dropPendingConnect();
  }

  function fail(reason: string, closeCode?: number): void {
    stopEverything();
    lifecycle = 'failed';
    failure = closeCode === undefined ? { reason } : { reason, closeCode };
    log.error('recorder: recording failed', { reason, closeCode });
    emit();
  }

  function onKeepAlive(): void {
    service.keepAlive();
    emit();
  }

  function onPauseLimit(): void {
    if (lifecycle !== 'active' || !pause || pause.limitReached) return;
    log.info('recorder: pause limit reached, aborting the stream', { afterMs: timing.abortPauseAfterMs });
    pause.limitReached = true;
    pauseTimers.stop();
    service.abort();
    emit();
  }

  function onCaptureStall(): void {
    if (lifecycle !== 'active' || pause) return;
    log.warn('recorder: no audio from the microphone', { forMs: timing.captureStallMs });
    speech = false;
    beginPause('auto', 'mic-stopped');
    emit();
  }

  function onLinkChange(change: StreamLinkChange): void {
    if (lifecycle !== 'active' && lifecycle !== 'ending') return service.observe(change);
    const verdict = service.apply(change, lifecycle === 'active' && pause !== null);
    // While ending, the close after EOF is the goal; a failure shows up as finish() rejecting.
    if (verdict === 'unexpected-close' && lifecycle === 'active') {
      return fail(change.reason ?? describeStreamClose(change.closeCode), change.closeCode);
    }
    if (verdict !== 'ignored') emit();
  }

  function acceptSeq(chunk: CapturedChunk): boolean {
    if (captureFinished) {
      log.warn('recorder: chunk after the capture’s final one, ignored', { seq: chunk.seq });
      return false;
    }
    if (lastSeq !== null && chunk.seq <= lastSeq) {
      log.warn('recorder: chunk out of order, ignored', { seq: chunk.seq, lastSeq });
      return false;
    }
    if (lastSeq !== null && chunk.seq !== lastSeq + 1) {
      log.warn('recorder: chunks missing from capture', { from: lastSeq + 1, to: chunk.seq - 1 });
    }
    lastSeq = chunk.seq;
    if (chunk.final) captureFinished = true;
    return true;
  }

  async function finishStream(): Promise<void> {
    // An ABORTed stream needs a connection again to deliver what is left and the EOF.
    const abortSettling = service.connectAfterAbort();
    if (abortSettling) await abortSettling;
    // Cancelled or failed meanwhile: there is nothing to finish any more.
    if (lifecycle !== 'ending') throw new Error(`The recording was ${lifecycle} before it finished.`);
    await stream.finish();
  }

  return {
    get state() {
      return snapshot();
    },

    get visitClock() {
      return visitClock.clock;
    },

    onChange(listener) {
      return emitter.subscribe(listener);
    },

    start() {
      if (lifecycle !== 'idle') return log.warn('recorder: start ignored', { state: displayState() });
      lifecycle = 'active';
      // Armed now, not on the first chunk: a microphone that never starts is also a stall; it gets
      // longer than a stall to start (the microphone, the capture graph and the autoplay rule).
      watchdog.arm(timing.captureStartMs);
      stream.connect();
      emit();
    },

    pushChunk(chunk) {
      if (lifecycle !== 'active' || !acceptSeq(chunk)) return;
      speech = chunk.speech;
      const ms = pcmDurationMs(chunk.pcm);
      gaps.chunk(clock.now(), ms);
      if (pause?.kind === 'manual') return emit(); // privacy: dropped, neither sent nor kept

      // Its place on the visit clock stays with it, also in the pre-roll: sent after a pause, it
      // still belongs to when it was captured, not to when it went out.
      const counted: VisitChunk = { ...chunk, visitAtMs: elapsedMs };
      elapsedMs += ms;
      if (pause) {
        // After a stall, audio that flows again is sent whatever the voice detection says of it: the
        // stall was the audio's absence, not a quiet room. A busy machine delivers a late burst of
        // chunks, and the pauses between its words must not be cut as a silence would be (issue
        // 36). A room that is really quiet auto-pauses again after autoPauseAfterMs, as ever.
        if (!chunk.speech && pause.cause !== 'mic-stopped') {
          preRoll.push(counted);
          return emit();
        }
        leavePause();
      }

      // The network never costs audio: the stream client keeps what it cannot send yet.
      send(counted);
      watchdog.arm();
      silenceMs = chunk.speech ? 0 : silenceMs + ms;
      // Only on an open link: a connection that is not up has nothing to pause, and the next
      // silent chunk after it opens pauses.
      if (silenceMs >= timing.autoPauseAfterMs && service.isOpen) beginPause('auto', 'no-speech');
      emit();
    },

    captureDetached() {
      if (lifecycle !== 'active') return;
      log.info('recorder: the capturing page went away; waiting for it to rejoin', {
        withinMs: timing.captureStartMs,
      });
      gaps.detached();
      // Paused, the watchdog is off and stays off: there is nothing to wait for.
      if (!pause) watchdog.arm(timing.captureStartMs);
    },

    attachCapture() {
      if (lifecycle !== 'active') return log.warn('recorder: attach ignored', { state: displayState() });
      log.info('recorder: a new capture joins the recording', { afterSeq: lastSeq });
      lastSeq = null;
      captureFinished = false;
      gaps.attached();
      if (!pause) watchdog.arm(timing.captureStartMs);
    },

    pause() {
      if (lifecycle !== 'active') return log.warn('recorder: pause ignored', { state: displayState() });
      if (pause?.kind === 'manual') return;
      if (pause) {
        // The service is already paused (same pause, same timers); now privacy rules apply.
        pause.kind = 'manual';
        pause.cause = 'manual';
        preRoll.clear();
      } else {
        beginPause('manual', 'manual');
      }
      emit();
    },

    resume() {
      if (lifecycle !== 'active' || !pause)
        return log.warn('recorder: resume ignored', { state: displayState() });
      leavePause();
      emit();
    },

    end() {
      if (ending) return ending;
      if (lifecycle === 'ended') return Promise.resolve();
      if (lifecycle !== 'active') {
        return Promise.reject(new Error(`Cannot end a recording that is ${displayState()}.`));
      }
      // A reload's gap still open (End before the new page sent anything) is kept to End.
      gaps.ended(clock.now());
      // Paused audio is not part of the visit: nothing more to send, no RESUME.
      stopEverything();
      lifecycle = 'ending';
      endingRefresh.every(ENDING_REFRESH_MS, emit);
      emit();
      ending = finishStream().then(
        () => {
          if (lifecycle !== 'ending') return;
          endingRefresh.clear();
          lifecycle = 'ended';
          emit();
        },
        (error: unknown) => {
          if (lifecycle === 'ending') fail(error instanceof Error ? error.message : String(error));
          throw error;
        },
      );
      return ending;
    },

    async cancel() {
      if (lifecycle === 'cancelled') return;
      if (lifecycle === 'ended') throw new Error('Cannot cancel a recording that has ended.');
      const started = lifecycle !== 'idle';
      stopEverything();
      lifecycle = 'cancelled';
      emit();
      if (started) await stream.cancel();
    },

    dispose() {
      stopEverything();
      unsubscribeLink();
      emitter.clear();
    },
  };
}
