import { describe, expect, it } from 'vitest';
import { range } from './testing/chunks';
import { createHarness, flush } from './testing/harness';

const pauseEvents = (calls: string[]) => calls.filter((c) => ['PAUSE', 'RESUME', 'KEEP_ALIVE'].includes(c));

describe('manual pause (privacy)', () => {
  it('sends PAUSE, drops every chunk, is not resumed by speech, and resume() sends RESUME', () => {
    const h = createHarness();
    h.startStreaming();
    h.play('SSS'); // seq 0-2
    h.recorder.pause();
    expect(h.stream.calls().at(-1)).toBe('PAUSE');
    expect(h.recorder.state).toMatchObject({ state: 'paused', pauseReason: 'manual' });

    h.play('SSSS....SSSS'); // seq 3-14: the VAD hears speech, the clinician asked for privacy
    expect(h.recorder.state.state).toBe('paused');
    expect(h.recorder.state.speech).toBe(true);
    expect(h.recorder.state.elapsedMs).toBe(300);

    const mark = h.stream.log.length;
    h.recorder.resume();
    h.play('SS'); // seq 15-16
    // No pre-roll: nothing captured during the pause ever leaves the machine.
    expect(h.stream.calls(mark)).toEqual(['RESUME', 'audio 15', 'audio 16']);
    expect(h.stream.audioSeqs()).toEqual([0, 1, 2, 15, 16]);
    expect(h.recorder.state).toMatchObject({ state: 'streaming', pauseReason: null });
  });

  it('turns an auto-pause into a manual one: no second PAUSE, speech does not resume, the pre-roll is dropped', () => {
    const h = createHarness({ autoPauseAfterMs: 1_000 });
    h.startStreaming();
    h.play('S ..........'); // PAUSE after seq 10
    h.play('.....'); // seq 11-15 held as pre-roll
    h.recorder.pause();
    expect(h.recorder.state).toMatchObject({ state: 'paused', pauseReason: 'manual' });
    h.play('SSSSS'); // seq 16-20
    expect(h.recorder.state.state).toBe('paused');

    h.recorder.resume();
    h.play('S'); // seq 21
    expect(pauseEvents(h.stream.calls())).toEqual(['PAUSE', 'RESUME']);
    expect(h.stream.audioSeqs()).toEqual([...range(0, 10), 21]);
  });

  it('resume() during an auto-pause sends RESUME and the pre-roll without waiting for speech', () => {
    const h = createHarness({ autoPauseAfterMs: 1_000, preRollMs: 300 });
    h.startStreaming();
    h.play('S .......... .....');
    const mark = h.stream.log.length;
    h.recorder.resume();
    expect(h.stream.calls(mark)).toEqual(['RESUME', 'audio 13', 'audio 14', 'audio 15']);
    expect(h.recorder.state.state).toBe('streaming');
  });
});

describe('KEEP_ALIVE while paused', () => {
  it('sends one every keepAliveEveryMs from the start of a manual pause, and stops on resume', () => {
    const h = createHarness({ keepAliveEveryMs: 2_000 });
    h.startStreaming();
    h.play('SSSSS'); // t = 500
    h.recorder.pause();
    h.play('S'.repeat(100)); // 10 s paused
    expect(h.stream.times('PAUSE')).toEqual([500]);
    expect(h.stream.times('KEEP_ALIVE')).toEqual([2_500, 4_500, 6_500, 8_500, 10_500]);

    h.recorder.resume();
    h.play('S'.repeat(100));
    expect(h.stream.times('KEEP_ALIVE')).toHaveLength(5);
  });

  it('starts with an auto-pause too, never leaving the service 5 s without one', () => {
    const h = createHarness({ autoPauseAfterMs: 1_000, keepAliveEveryMs: 2_000 });
    h.startStreaming();
    h.play('S ..........'); // PAUSE at t = 1,100
    h.play('.'.repeat(60)); // to t = 7,100
    expect(h.stream.times('PAUSE')).toEqual([1_100]);
    expect(h.stream.times('KEEP_ALIVE')).toEqual([3_100, 5_100, 7_100]);
    h.play('S');
    h.play('S'.repeat(30));
    expect(h.stream.times('KEEP_ALIVE')).toHaveLength(3);
  });
});

describe('capture stall', () => {
  it('pauses after captureStallMs without a chunk, and resumes on the next chunk even if it is not speech', () => {
    const h = createHarness({ captureStallMs: 1_000, preRollMs: 600 });
    h.startStreaming();
    h.play('SSS'); // last chunk at t = 300
    h.play('---------'); // t = 1,200: 900 ms without audio
    expect(h.stream.calls()).not.toContain('PAUSE');

    h.play('-'); // t = 1,300
    expect(h.stream.times('PAUSE')).toEqual([1_300]);
    expect(h.recorder.state).toMatchObject({
      state: 'auto-paused',
      pauseReason: 'mic-stopped',
      speech: false,
    });

    // Audio is back, none of it speech: a late burst from a busy machine (the gaps between words)
    // or a quiet room. Either way it is sent; nothing is cut on the guess that the stall was silence.
    const mark = h.stream.log.length;
    h.play('..'); // seq 3-4
    expect(h.stream.calls(mark)).toEqual(['RESUME', 'audio 3', 'audio 4']);
    expect(h.recorder.state).toMatchObject({ state: 'streaming', pauseReason: null });
    h.play('S'); // seq 5
    expect(h.stream.calls(mark)).toEqual(['RESUME', 'audio 3', 'audio 4', 'audio 5']);
  });

  it('after a stall, a quiet room auto-pauses again after autoPauseAfterMs of silence, as ever', () => {
    const h = createHarness({ captureStallMs: 1_000, autoPauseAfterMs: 1_000, preRollMs: 300 });
    h.startStreaming();
    h.play('S'); // t = 100
    h.play('----------'); // t = 1,100: stalled
    expect(h.stream.times('PAUSE')).toEqual([1_100]);
    h.play('.........'); // 900 ms of non-speech: sent, not yet a pause
    expect(h.stream.times('RESUME')).toHaveLength(1);
    expect(h.stream.times('PAUSE')).toHaveLength(1);
    h.play('.'); // 1,000 ms of non-speech since the audio came back
    expect(h.stream.times('PAUSE')).toHaveLength(2);
    expect(h.recorder.state).toMatchObject({ state: 'auto-paused', pauseReason: 'no-speech' });
  });

  it('counts a microphone that never starts as stalled, after the longer start allowance', () => {
    const h = createHarness({ captureStallMs: 1_000, captureStartMs: 3_000 });
    h.startStreaming();
    h.clock.advance(2_999);
    expect(h.stream.calls()).toEqual(['connect']);
    h.clock.advance(1);
    expect(h.stream.calls()).toEqual(['connect', 'PAUSE']);
    expect(h.recorder.state.pauseReason).toBe('mic-stopped');
  });

  it('does not watch the microphone while paused', () => {
    const h = createHarness({ captureStallMs: 1_000 });
    h.startStreaming();
    h.play('S');
    h.recorder.pause();
    h.play('----------------------');
    expect(h.recorder.state.pauseReason).toBe('manual');
  });
});

describe('pause limit', () => {
  it('ABORTs at exactly abortPauseAfterMs, keeps the pause, then reconnects on speech and sends pre-roll and speech', async () => {
    const h = createHarness({ autoPauseAfterMs: 1_000, abortPauseAfterMs: 60_000, preRollMs: 300 });
    h.startStreaming();
    h.play('S ..........'); // PAUSE at t = 1,100
    h.play('.'.repeat(599)); // t = 61,000
    expect(h.stream.calls()).not.toContain('abort');

    h.play('.'); // t = 61,100
    expect(h.stream.times('abort')).toEqual([61_100]);
    expect(h.recorder.state).toMatchObject({
      state: 'auto-paused',
      pauseReason: 'pause-limit',
      failure: null,
    });
    const keepAlives = h.stream.times('KEEP_ALIVE').length;
    expect(keepAlives).toBe(30); // 3,100 … 61,100

    h.play('.'.repeat(50)); // a closed stream gets no KEEP_ALIVE
    expect(h.stream.times('KEEP_ALIVE')).toHaveLength(keepAlives);
    await flush(); // abort() has settled, as it has long before anyone speaks again
    const mark = h.stream.log.length;
    const onset = h.nextSeq;
    h.play('S');
    // A fresh connection runs at the service: no RESUME.
    expect(h.stream.calls(mark)).toEqual([
      'connect',
      `audio ${onset - 3}`,
      `audio ${onset - 2}`,
      `audio ${onset - 1}`,
      `audio ${onset}`,
    ]);
    expect(h.recorder.state).toMatchObject({ state: 'connecting', pauseReason: null });
    h.play('SS');
    h.stream.link('connecting');
    h.stream.link('open');
    expect(h.recorder.state.state).toBe('streaming');
    expect(h.stream.calls(mark).filter((c) => !c.startsWith('audio '))).toEqual(['connect']);
  });

  it('after the limit on a manual pause, resume() reconnects and the new audio follows', async () => {
    const h = createHarness({ abortPauseAfterMs: 60_000 });
    h.startStreaming();
    h.play('S');
    h.recorder.pause(); // t = 100
    h.play('S'.repeat(600)); // t = 60,100
    expect(h.stream.times('abort')).toEqual([60_100]);
    expect(h.recorder.state).toMatchObject({ state: 'paused', pauseReason: 'pause-limit' });
    await flush();

    const mark = h.stream.log.length;
    const next = h.nextSeq;
    h.recorder.resume();
    h.play('SS');
    expect(h.stream.calls(mark)).toEqual(['connect', `audio ${next}`, `audio ${next + 1}`]);
    h.stream.link('open');
    expect(h.recorder.state.state).toBe('streaming');
  });

  it('waits for the ABORT to finish before connecting again', async () => {
    const h = createHarness({ abortPauseAfterMs: 60_000 });
    h.stream.holdAbort = true;
    h.startStreaming();
    h.play('S');
    h.recorder.pause();
    h.clock.advance(60_000);
    h.recorder.resume();
    h.play('S');
    expect(h.stream.calls().slice(-2)).toEqual(['abort', 'audio 1']);
    expect(h.recorder.state.state).toBe('connecting');

    h.stream.settleAbort();
    await flush();
    expect(h.stream.calls().slice(-1)).toEqual(['connect']);
  });

  it('a pause turned manual keeps the pause clock the service is counting', () => {
    const h = createHarness({ autoPauseAfterMs: 1_000, abortPauseAfterMs: 60_000 });
    h.startStreaming();
    h.play('S ..........'); // PAUSE at t = 1,100
    h.play('.'.repeat(100));
    h.recorder.pause(); // t = 11,100
    h.play('.'.repeat(500)); // t = 61,100
    expect(h.stream.times('abort')).toEqual([61_100]);
  });
});
