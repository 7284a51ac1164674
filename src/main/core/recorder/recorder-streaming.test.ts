import { describe, expect, it } from 'vitest';
import { range } from './testing/chunks';
import { createHarness } from './testing/harness';

const states = (h: ReturnType<typeof createHarness>) => h.seen.map((s) => s.state);

describe('starting and streaming', () => {
  it('connects, appends the chunks that arrive before the link opens, and streams once it opens', () => {
    const h = createHarness();
    h.recorder.start();
    expect(h.recorder.state.state).toBe('connecting');
    h.play('SSS');
    expect(h.stream.calls()).toEqual(['connect', 'audio 0', 'audio 1', 'audio 2']);

    h.stream.link('open');
    expect(h.recorder.state.state).toBe('streaming');
    h.play('SS');
    expect(h.stream.audioSeqs()).toEqual(range(0, 4));
    expect(new Set(states(h))).toEqual(new Set(['connecting', 'streaming']));
  });

  it('ignores chunks before start(), a second start(), and a chunk it has already had', () => {
    const h = createHarness();
    h.play('SS'); // seq 0, 1: nothing is recording yet
    h.recorder.start();
    h.recorder.start();
    h.play('S'); // seq 2
    h.recorder.pushChunk({ seq: 2, capturedAt: 0, pcm: new Uint8Array(3_200), speech: true });
    expect(h.stream.calls()).toEqual(['connect', 'audio 2']);
  });

  it('shows captured time, speech now, bytes appended/acked and the backlog in ms', () => {
    const h = createHarness();
    h.startStreaming();
    h.play('SSSS.');
    expect(h.recorder.state).toMatchObject({
      state: 'streaming',
      pauseReason: null,
      elapsedMs: 500,
      speech: false,
      link: 'open',
      bytesAppended: 16_000,
      bytesAcked: 0,
      backlogMs: 500,
      failure: null,
    });
    h.stream.ackAll();
    h.play('S');
    expect(h.recorder.state).toMatchObject({
      elapsedMs: 600,
      speech: true,
      bytesAcked: 16_000,
      backlogMs: 100,
    });
  });
});

describe('auto-pause on silence', () => {
  it('pauses at exactly autoPauseAfterMs of non-speech, after sending the chunk that completes it', () => {
    const h = createHarness({ autoPauseAfterMs: 1_000 });
    h.startStreaming();
    h.play('SS .........'); // 900 ms of silence
    expect(h.stream.calls()).not.toContain('PAUSE');
    expect(h.recorder.state.state).toBe('streaming');

    h.play('.'); // seq 11: the 1,000th ms
    expect(h.stream.calls().slice(-2)).toEqual(['audio 11', 'PAUSE']);
    expect(h.stream.times('PAUSE')).toEqual([1_200]);
    expect(h.recorder.state).toMatchObject({ state: 'auto-paused', pauseReason: 'no-speech' });
    h.play('....');
    expect(h.stream.audioSeqs()).toEqual(range(0, 11));
  });

  it('starts counting again at every speech chunk', () => {
    const h = createHarness({ autoPauseAfterMs: 1_000 });
    h.startStreaming();
    h.play('......... S ......... S .........');
    expect(h.stream.calls()).not.toContain('PAUSE');
    h.play('.');
    expect(h.stream.calls().at(-1)).toBe('PAUSE');
  });

  it('does not pause before the link is open, and pauses on the first silent chunk once it is', () => {
    const h = createHarness({ autoPauseAfterMs: 1_000 });
    h.recorder.start();
    h.play('...............'); // 1.5 s of silence while connecting: all appended
    expect(h.stream.calls()).toEqual(['connect', ...range(0, 14).map((seq) => `audio ${seq}`)]);
    h.stream.link('open');
    h.play('.');
    expect(h.stream.calls().slice(-2)).toEqual(['audio 15', 'PAUSE']);
  });

  it('on speech: RESUME, exactly the pre-roll frames before the onset in order, then the speech; nothing twice', () => {
    const h = createHarness({ autoPauseAfterMs: 1_000, preRollMs: 600 });
    h.startStreaming();
    h.play('S ..........'); // seq 0-10, PAUSE after 10
    h.play('....................'); // seq 11-30 held back
    const mark = h.stream.log.length;
    h.play('S'); // seq 31: the onset
    expect(h.stream.calls(mark)).toEqual([
      'RESUME',
      'audio 25',
      'audio 26',
      'audio 27',
      'audio 28',
      'audio 29',
      'audio 30',
      'audio 31',
    ]);
    expect(h.recorder.state).toMatchObject({ state: 'streaming', pauseReason: null });
    h.play('SS..S');
    // Nothing from before the pre-roll, and from the pre-roll onward every chunk exactly once.
    expect(h.stream.audioSeqs()).toEqual([...range(0, 10), ...range(25, 36)]);
    expect(h.recorder.state.elapsedMs).toBe(3_700);
  });

  it('sends a shorter pre-roll when speech comes back before preRollMs of silence was held', () => {
    const h = createHarness({ autoPauseAfterMs: 1_000, preRollMs: 600 });
    h.startStreaming();
    h.play('S ..........');
    const mark = h.stream.log.length;
    h.play('..S');
    expect(h.stream.calls(mark)).toEqual(['RESUME', 'audio 11', 'audio 12', 'audio 13']);
  });

  it('pauses again after the next stretch of silence and keeps pre-rolls apart', () => {
    const h = createHarness({ autoPauseAfterMs: 1_000, preRollMs: 300 });
    h.startStreaming();
    h.play('S .......... ..... S .......... .... S');
    expect(h.stream.calls().filter((c) => c === 'PAUSE' || c === 'RESUME')).toEqual([
      'PAUSE',
      'RESUME',
      'PAUSE',
      'RESUME',
    ]);
    // seq 0-10 | held 11-15, pre-roll 13-15, onset 16 | 17-26 | held 27-30, pre-roll 28-30, onset 31
    expect(h.stream.audioSeqs()).toEqual([...range(0, 10), ...range(13, 26), ...range(28, 31)]);
  });
});
