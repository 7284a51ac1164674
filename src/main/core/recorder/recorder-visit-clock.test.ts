import { describe, expect, it } from 'vitest';
import { toVisitMs, type VisitClock } from '../../../shared/visit-clock';
import { silentLogger } from '../ports';
import { FakeClock } from '../testing/fake-clock';
import { createRecorder } from './recorder';
import { CHUNK_MS, makeChunk, range } from './testing/chunks';
import { FakeStream } from './testing/fake-stream';
import { createHarness, TEST_TIMING, type Harness } from './testing/harness';

/** Where each chunk the service received begins in its audio, ms (its transcript offsets). */
const sentAt = (h: Harness, seq: number): number => {
  const index = h.stream.audioSeqs().indexOf(seq);
  if (index < 0) throw new Error(`chunk ${seq} was not sent`);
  return index * CHUNK_MS;
};

describe('the visit clock of the audio sent', () => {
  it('maps speech after an auto-pause, and its pre-roll, back to when they were captured', () => {
    const h = createHarness({ autoPauseAfterMs: 1_000, preRollMs: 600 });
    h.startStreaming();
    h.play('SSSSS ..........'); // seq 0-14 sent; PAUSE after seq 14 (1 s without speech)
    h.play('..........'); // seq 15-24 (visit 1,500-2,500): held back, the newest 600 ms as pre-roll
    h.play('SSS'); // seq 25-27: RESUME, pre-roll seq 19-24, then the speech
    expect(h.stream.audioSeqs()).toEqual([...range(0, 14), ...range(19, 27)]);
    // Every chunk here is 100 ms and nothing was paused by hand: seq n was captured at n × 100 ms.
    expect(h.recorder.state.elapsedMs).toBe(2_800);

    expect(h.recorder.visitClock).toEqual([
      { sentStartMs: 0, visitStartMs: 0 },
      { sentStartMs: 1_500, visitStartMs: 1_900 },
    ]);
    const clock = h.recorder.visitClock;
    expect(sentAt(h, 25)).toBe(2_100);
    expect(toVisitMs(sentAt(h, 25), clock)).toBe(2_500); // the second speech's first chunk
    expect(toVisitMs(sentAt(h, 19), clock)).toBe(1_900); // the pre-roll's first chunk
    for (const seq of h.stream.audioSeqs()) expect(toVisitMs(sentAt(h, seq), clock)).toBe(seq * CHUNK_MS);
  });

  it('a manual pause stops the visit clock: the audio after resume goes on in the same stretch', () => {
    const h = createHarness();
    h.startStreaming();
    h.play('SSS'); // seq 0-2: visit 0-300
    h.recorder.pause();
    h.play('SSSS'); // seq 3-6: dropped, and not counted
    h.recorder.resume();
    h.play('SS'); // seq 7-8: visit 300-500
    expect(h.stream.audioSeqs()).toEqual([0, 1, 2, 7, 8]);
    expect(h.recorder.state.elapsedMs).toBe(500);

    expect(h.recorder.visitClock).toEqual([{ sentStartMs: 0, visitStartMs: 0 }]);
    expect(toVisitMs(sentAt(h, 7), h.recorder.visitClock)).toBe(300);
  });

  it('an auto-pause turned manual keeps the gap of the audio held back before it', () => {
    const h = createHarness({ autoPauseAfterMs: 1_000, preRollMs: 600 });
    h.startStreaming();
    h.play('S ..........'); // seq 0-10 sent (visit 0-1,100), PAUSE
    h.play('.....'); // seq 11-15 (visit 1,100-1,600): counted, pre-roll dropped by the manual pause
    h.recorder.pause();
    h.play('SSS'); // dropped, not counted
    h.recorder.resume();
    h.play('S'); // captured at 1,600 on the visit clock, sent at 1,100
    expect(h.recorder.visitClock).toEqual([
      { sentStartMs: 0, visitStartMs: 0 },
      { sentStartMs: 1_100, visitStartMs: 1_600 },
    ]);
  });

  it('tells of each new stretch before any of its audio reaches the stream', () => {
    const clock = new FakeClock();
    const stream = new FakeStream(clock);
    const told: { clock: VisitClock; sentBefore: number }[] = [];
    const recorder = createRecorder({
      stream,
      clock,
      log: silentLogger,
      timing: { ...TEST_TIMING, autoPauseAfterMs: 1_000, preRollMs: 300 },
      onVisitClock: (visitClock) => told.push({ clock: visitClock, sentBefore: stream.audioSeqs().length }),
    });
    recorder.start();
    stream.link('open');
    const pattern = `S${'.'.repeat(10)}${'.'.repeat(10)}SS`;
    for (const [seq, char] of [...pattern].entries()) {
      clock.advance(CHUNK_MS);
      recorder.pushChunk(makeChunk(seq, char === 'S'));
    }
    expect(told).toEqual([
      { clock: [{ sentStartMs: 0, visitStartMs: 0 }], sentBefore: 0 },
      {
        clock: [
          { sentStartMs: 0, visitStartMs: 0 },
          { sentStartMs: 1_100, visitStartMs: 1_800 },
        ],
        sentBefore: 11,
      },
    ]);
    expect(recorder.visitClock).toEqual(told.at(-1)?.clock);
  });
});
