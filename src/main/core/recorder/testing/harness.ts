import { silentLogger } from '../../ports';
import { createRecorder, type Recorder } from '../recorder';
import type { RecorderTiming } from '../recorder-types';
import type { RecorderSnapshot } from '../recorder-view';
import { CHUNK_MS, makeChunk } from './chunks';
import { FakeClock } from '../../testing/fake-clock';
import { FakeStream } from './fake-stream';

/** Round numbers that keep the tests readable; each test says which one it exercises. */
export const TEST_TIMING: RecorderTiming = {
  autoPauseAfterMs: 1_000,
  preRollMs: 600,
  keepAliveEveryMs: 2_000,
  abortPauseAfterMs: 60_000,
  captureStallMs: 1_000,
  captureStartMs: 3_000,
};

export interface Harness {
  clock: FakeClock;
  stream: FakeStream;
  recorder: Recorder;
  /** Every snapshot the recorder emitted, in order. */
  seen: RecorderSnapshot[];
  /**
   * Plays a pattern in real time: each character is 100 ms of clock, then (for 'S' and '.') a
   * chunk with the next seq. '-' is 100 ms with no chunk (a stalled microphone). Spaces are ignored.
   */
  play(pattern: string): void;
  /** The seq the next chunk will carry. */
  readonly nextSeq: number;
  /** start() and the link opening: the usual beginning of a test. */
  startStreaming(): void;
}

export function createHarness(timing: Partial<RecorderTiming> = {}): Harness {
  const clock = new FakeClock();
  const stream = new FakeStream(clock);
  const recorder = createRecorder({
    stream,
    clock,
    log: silentLogger,
    timing: { ...TEST_TIMING, ...timing },
  });
  const seen: RecorderSnapshot[] = [];
  recorder.onChange((snapshot) => seen.push(snapshot));
  let seq = 0;
  return {
    clock,
    stream,
    recorder,
    seen,
    play(pattern) {
      for (const char of pattern.replaceAll(' ', '')) {
        if (char !== 'S' && char !== '.' && char !== '-')
          throw new Error(`unknown pattern character ${char}`);
        clock.advance(CHUNK_MS);
        if (char !== '-') recorder.pushChunk(makeChunk(seq++, char === 'S'));
      }
    },
    get nextSeq() {
      return seq;
    },
    startStreaming() {
      recorder.start();
      stream.link('open');
    },
  };
}

/** Lets pending promise callbacks run (end(), cancel() and abort() settle through promises). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
