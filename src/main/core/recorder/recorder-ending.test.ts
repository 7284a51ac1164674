import { describe, expect, it } from 'vitest';
import { makeChunk, range } from './testing/chunks';
import { createHarness, flush, type Harness } from './testing/harness';
import { describeRecorder } from './recorder-view';

/** Whether a promise has settled yet, without waiting for it. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await flush();
  return done;
}

function script(h: Harness): void {
  h.startStreaming();
  h.play('SSS ..........  .... S SS');
  h.stream.link('reconnecting');
  h.play('SS ..');
  h.stream.link('open');
  h.recorder.pause();
  h.play('SS SS'.repeat(30));
  h.recorder.resume();
  h.play('SS ---------- .. S');
}

describe('end', () => {
  it('sends finish after the last audio, shows ending, then ended; later chunks are ignored', async () => {
    const h = createHarness();
    h.startStreaming();
    h.play('SSS');
    const ending = h.recorder.end();
    expect(h.recorder.state.state).toBe('ending');
    h.play('SS');
    expect(h.stream.calls()).toEqual(['connect', 'audio 0', 'audio 1', 'audio 2', 'finish']);

    h.stream.completeFinish();
    await ending;
    expect(h.recorder.state.state).toBe('ended');
    await expect(h.recorder.end()).resolves.toBeUndefined();
  });

  it('sends the capture’s final, shorter chunk before the EOF, and nothing of that capture after it', async () => {
    const h = createHarness();
    h.startStreaming();
    h.play('SSS');
    const tail = { ...makeChunk(3, true), pcm: makeChunk(3, true).pcm.slice(0, 1_120), final: true };
    h.recorder.pushChunk(tail);
    h.recorder.pushChunk(makeChunk(4, true));
    const ending = h.recorder.end();
    expect(h.stream.calls()).toEqual(['connect', 'audio 0', 'audio 1', 'audio 2', 'audio 3', 'finish']);
    expect(h.recorder.state.elapsedMs).toBe(335);
    h.stream.completeFinish();
    await ending;
  });

  it('while paused sends nothing more: no RESUME, no held pre-roll, no KEEP_ALIVE while finishing', async () => {
    const h = createHarness({ autoPauseAfterMs: 1_000 });
    h.startStreaming();
    h.play('S .......... .....'); // auto-paused, seq 11-15 held
    const ending = h.recorder.end();
    h.clock.advance(30_000);
    h.stream.completeFinish();
    await ending;
    expect(h.stream.calls().slice(-2)).toEqual(['PAUSE', 'finish']);
    expect(h.stream.audioSeqs()).toEqual(range(0, 10));
    expect(h.recorder.state.state).toBe('ended');
  });

  it('while offline keeps waiting for the stream, saying it finishes when online', async () => {
    const h = createHarness();
    h.startStreaming();
    h.play('SSS');
    h.stream.link('offline');
    const ending = h.recorder.end();
    expect(h.stream.calls().at(-1)).toBe('finish');
    h.clock.advance(10 * 60_000);
    expect(await settled(ending)).toBe(false);
    expect(h.recorder.state).toMatchObject({ state: 'ending', link: 'offline', backlogMs: 300 });
    expect(describeRecorder(h.recorder.state)).toMatch(/^Finishing when online/);

    h.stream.link('open');
    h.stream.ackAll();
    h.clock.advance(500);
    expect(h.seen.at(-1)).toMatchObject({ state: 'ending', backlogMs: 0 });
    h.stream.link('closed', { closeCode: 1000 });
    h.stream.completeFinish();
    await ending;
    expect(h.recorder.state.state).toBe('ended');
  });

  it('after the pause limit connects again before finishing', async () => {
    const h = createHarness({ abortPauseAfterMs: 60_000 });
    h.startStreaming();
    h.play('S');
    h.recorder.pause();
    h.clock.advance(60_000);
    await flush();
    const ending = h.recorder.end();
    expect(h.stream.calls().slice(-3)).toEqual(['abort', 'connect', 'finish']);
    h.stream.completeFinish();
    await ending;
    expect(h.recorder.state.state).toBe('ended');
  });

  it('waits for an ABORT still under way before connecting and finishing', async () => {
    const h = createHarness({ abortPauseAfterMs: 60_000 });
    h.stream.holdAbort = true;
    h.startStreaming();
    h.recorder.pause();
    h.clock.advance(60_000);
    const ending = h.recorder.end();
    expect(h.stream.calls().at(-1)).toBe('abort');
    h.stream.settleAbort();
    await flush();
    expect(h.stream.calls().slice(-2)).toEqual(['connect', 'finish']);
    h.stream.completeFinish();
    await ending;
    expect(h.recorder.state.state).toBe('ended');
  });

  it('a cancel while waiting for that ABORT neither connects nor finishes', async () => {
    const h = createHarness({ abortPauseAfterMs: 60_000 });
    h.stream.holdAbort = true;
    h.startStreaming();
    h.recorder.pause();
    h.clock.advance(60_000);
    const ending = h.recorder.end();
    await h.recorder.cancel();
    h.stream.settleAbort();
    await expect(ending).rejects.toThrow('cancelled');
    expect(h.stream.calls().filter((c) => c !== 'KEEP_ALIVE')).toEqual([
      'connect',
      'PAUSE',
      'abort',
      'cancel',
    ]);
    expect(h.recorder.state.state).toBe('cancelled');
  });

  it('fails with the stream error when finishing fails', async () => {
    const h = createHarness();
    h.startStreaming();
    h.play('S');
    const ending = h.recorder.end();
    h.stream.failFinish('The service refused the stream: the session has ended.');
    await expect(ending).rejects.toThrow('session has ended');
    expect(h.recorder.state).toMatchObject({
      state: 'failed',
      failure: { reason: 'The service refused the stream: the session has ended.' },
    });
  });

  it('returns the same promise when pressed twice, and refuses before start', async () => {
    const h = createHarness();
    await expect(h.recorder.end()).rejects.toThrow('idle');
    h.startStreaming();
    expect(h.recorder.end()).toBe(h.recorder.end());
    expect(h.stream.calls().filter((c) => c === 'finish')).toHaveLength(1);
  });
});

describe('cancel', () => {
  it('cancels the stream, shows cancelled, ignores further chunks and stops the pause timers', async () => {
    const h = createHarness();
    h.startStreaming();
    h.play('S');
    h.recorder.pause();
    await h.recorder.cancel();
    expect(h.recorder.state.state).toBe('cancelled');
    h.play('SSS');
    h.clock.advance(60_000);
    h.stream.link('closed', { closeCode: 1000 });
    expect(h.stream.calls()).toEqual(['connect', 'audio 0', 'PAUSE', 'cancel']);
    expect(h.recorder.state.state).toBe('cancelled');
  });

  it('before start needs no stream', async () => {
    const h = createHarness();
    await h.recorder.cancel();
    expect(h.stream.calls()).toEqual([]);
    expect(h.recorder.state.state).toBe('cancelled');
  });
});

describe('determinism', () => {
  it('gives the same stream calls and snapshots for the same inputs and clock', () => {
    const a = createHarness();
    const b = createHarness();
    script(a);
    script(b);
    expect(a.stream.log).toEqual(b.stream.log);
    expect(a.seen).toEqual(b.seen);
    expect(a.stream.log.length).toBeGreaterThan(20);
  });
});
