import type { StateCreator } from 'zustand/vanilla';
import { MAX_RECORDING_SPAN_MS, type ScribeApi } from '../../shared/contract';
import type { AppState } from './app-store';

/** How much of the recording before a line's start plays with it: the first word's onset. */
export const REPLAY_LEAD_MS = 300;
/** The speeds Play offers: as spoken, and faster for a long line. */
export const REPLAY_RATES = [1, 1.5] as const;
export type ReplayRate = (typeof REPLAY_RATES)[number];

/** What plays the samples (audio/replay/replay-player.ts; a fake in tests). */
export interface ReplayPlayer {
  /** Makes the output ahead of a press, suspended (it costs nothing until it plays). */
  warm(): void;
  /** Readies the output while main reads the span, so sound starts soon after the press. */
  prepare(): Promise<void>;
  /**
   * Plays `pcm` from its start (held until resume() when `paused`); stops whatever played before.
   * `onEnded` once it has played out.
   */
  play(
    pcm: Int16Array,
    sampleRate: number,
    rate: number,
    onEnded: () => void,
    options?: { paused?: boolean },
  ): Promise<void>;
  /** The speed of what plays now. */
  setRate(rate: number): void;
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Stops and lets go of the audio; nothing plays after it. */
  stop(): void;
}

/** Main's base64 PCM as samples. */
export function decodePcm(base64: string): Int16Array {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return new Int16Array(bytes.buffer, 0, bytes.length >> 1);
}

/**
 * Where a Play was pressed: the transcript, or the lines under an open flag. A Play that plays
 * nothing says why there, beside the button pressed, not in a bar the clinician may not see.
 */
export type ReplaySurface = 'transcript' | 'flag';

/** What the warm-up reads of a visit's recording: enough to open one segment, too little to be heard. */
const WARM_SPAN_MS = 20;

/** A transcript line to play: its id and its span in the audio the service received, ms. */
export interface ReplayLine {
  id: string;
  fromMs: number;
  toMs: number;
}

/**
 * Playing a line of the visit back (issue 38): main reads the span from the visit's sealed
 * recording and hands the samples over; the player plays them. One line at a time. Pressing the
 * line playing pauses it, and again resumes it (Space on its button does the same).
 */
export interface ReplaySlice {
  replaying: { sessionId: string; lineId: string; paused: boolean } | null;
  /** Why the last Play played nothing, in one sentence (main's), for the visit and place it was pressed in. */
  replayProblem: { sessionId: string; where: ReplaySurface; message: string } | null;
  replayRate: ReplayRate;
  /**
   * A visit with Play is on screen: the output is made now, and main reads a moment of the visit's
   * recording (its first line's first 20 ms, dropped), not at the first press.
   */
  warmReplay(visit?: { sessionId: string; line: ReplayLine }): void;
  playLine(sessionId: string, line: ReplayLine, where?: ReplaySurface): Promise<void>;
  stopReplay(): void;
  setReplayRate(rate: ReplayRate): void;
}

/**
 * What Play asks main for: from REPLAY_LEAD_MS before the line to its end, whole ms, and at most
 * the contract's longest span (a line over two minutes plays its first two minutes).
 */
export function spanOf(line: ReplayLine): { fromMs: number; toMs: number } {
  const fromMs = Math.max(0, Math.floor(line.fromMs - REPLAY_LEAD_MS));
  return { fromMs, toMs: Math.min(Math.ceil(line.toMs), fromMs + MAX_RECORDING_SPAN_MS) };
}

export const createReplaySlice =
  (api: ScribeApi, player: ReplayPlayer): StateCreator<AppState, [], [], ReplaySlice> =>
  (set, get) => {
    /** Each press gets a number: an answer that comes after a later press is dropped. */
    let press = 0;
    /** Visits whose recording main has read once since the window loaded. */
    const warmed = new Set<string>();
    return {
      replaying: null,
      replayProblem: null,
      replayRate: 1,
      warmReplay(visit) {
        player.warm();
        if (!visit || warmed.has(visit.sessionId)) return;
        warmed.add(visit.sessionId);
        // Main's first read of a recording after a launch (the spool key, History, the manifests,
        // code not yet compiled) is paid now, while the clinician reads: a press the moment the
        // note showed after a restart took 203 ms median without it, 166 ms with it
        // (bench/replay-latency, 2 cores). What it fails on, a press says.
        const fromMs = Math.max(0, Math.floor(visit.line.fromMs));
        void api
          .call('recording.span', { sessionId: visit.sessionId, fromMs, toMs: fromMs + WARM_SPAN_MS })
          .catch(() => undefined);
      },
      async playLine(sessionId, line, where = 'transcript') {
        const now = get().replaying;
        if (now?.sessionId === sessionId && now.lineId === line.id) {
          set({ replaying: { ...now, paused: !now.paused } });
          await (now.paused ? player.resume() : player.pause());
          return;
        }
        const mine = ++press;
        player.stop();
        set({ replaying: { sessionId, lineId: line.id, paused: false }, replayProblem: null });
        try {
          // The output opens while main reads the span (made ahead by warmReplay, or now): the
          // first press measured 480 ms from the press to sound one after the other, 160 ms for
          // the next (the issue asks ≤ 300 ms).
          const [span] = await Promise.all([
            api.call('recording.span', { sessionId, ...spanOf(line) }),
            player.prepare(),
          ]);
          if (mine !== press) return;
          // Pressed again while main read it: paused, it waits for the next press.
          const paused = get().replaying?.paused === true;
          await player.play(
            decodePcm(span.pcm),
            span.sampleRate,
            get().replayRate,
            () => {
              if (mine === press) set({ replaying: null });
            },
            { paused },
          );
        } catch (error) {
          if (mine !== press) return;
          set({ replaying: null, replayProblem: { sessionId, where, message: (error as Error).message } });
        }
      },
      stopReplay() {
        press += 1;
        player.stop();
        if (get().replaying || get().replayProblem) set({ replaying: null, replayProblem: null });
      },
      setReplayRate(rate) {
        set({ replayRate: rate });
        player.setRate(rate);
      },
    };
  };
