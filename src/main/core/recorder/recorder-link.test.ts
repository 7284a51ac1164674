import { describe, expect, it } from 'vitest';
import { range } from './testing/chunks';
import { createHarness } from './testing/harness';

describe('link changes', () => {
  it('shows reconnecting and offline, keeps appending audio, and streams again without any event', () => {
    const h = createHarness();
    h.startStreaming();
    h.play('SS');
    h.stream.link('reconnecting', { closeCode: 1006 });
    expect(h.recorder.state.state).toBe('reconnecting');
    h.play('SS');
    h.stream.link('offline', { reason: 'service unreachable' });
    expect(h.recorder.state).toMatchObject({ state: 'offline', link: 'offline' });
    h.play('SS');
    h.stream.link('open');
    expect(h.recorder.state.state).toBe('streaming');
    // Never drop audio because of the network: the stream client resends from the last ACK.
    expect(h.stream.calls()).toEqual(['connect', ...range(0, 5).map((seq) => `audio ${seq}`)]);
  });

  it('re-sends PAUSE on the new connection when paused, and KEEP_ALIVE only on an open link', () => {
    const h = createHarness({ keepAliveEveryMs: 2_000 });
    h.startStreaming();
    h.play('S');
    h.recorder.pause(); // t = 100
    h.clock.advance(1_000);
    h.stream.link('reconnecting');
    expect(h.recorder.state).toMatchObject({ state: 'reconnecting', pauseReason: 'manual' });
    h.clock.advance(3_000); // t = 4,100: the keep-alive at 2,100 has nowhere to go
    expect(h.stream.times('KEEP_ALIVE')).toEqual([]);

    h.stream.link('open'); // a new connection runs at the service
    expect(h.stream.times('PAUSE')).toEqual([100, 4_100]);
    expect(h.recorder.state).toMatchObject({ state: 'paused', pauseReason: 'manual' });
    h.clock.advance(2_000);
    expect(h.stream.times('KEEP_ALIVE')).toEqual([6_100]);
    expect(h.stream.calls().filter((c) => c === 'RESUME')).toEqual([]);
  });

  it('re-sends PAUSE for an auto-pause too, which then resumes on speech with RESUME', () => {
    const h = createHarness({ autoPauseAfterMs: 1_000 });
    h.startStreaming();
    h.play('S ..........');
    h.stream.link('reconnecting');
    h.play('..');
    h.stream.link('open');
    expect(h.recorder.state.state).toBe('auto-paused');
    h.play('S');
    expect(h.stream.calls().slice(-5)).toEqual(['PAUSE', 'RESUME', 'audio 11', 'audio 12', 'audio 13']);
  });

  it('speech while the link is down hands RESUME over (the PAUSE may still be queued), and the new link runs', () => {
    const h = createHarness({ autoPauseAfterMs: 1_000, preRollMs: 200 });
    h.startStreaming();
    h.play('S .......... ...'); // PAUSE after 10, seq 11-13 held
    h.stream.link('offline');
    const mark = h.stream.log.length;
    h.play('S'); // seq 14
    expect(h.stream.calls(mark)).toEqual(['RESUME', 'audio 12', 'audio 13', 'audio 14']);
    expect(h.recorder.state).toMatchObject({ state: 'offline', pauseReason: null });
    h.stream.link('open');
    h.play('S');
    expect(h.stream.calls(mark)).toEqual(['RESUME', 'audio 12', 'audio 13', 'audio 14', 'audio 15']);
    expect(h.recorder.state.state).toBe('streaming');
  });

  it('a pause that began and ended while the link was down sends no event at all', () => {
    const h = createHarness();
    h.startStreaming();
    h.play('S');
    h.stream.link('reconnecting');
    h.recorder.pause();
    h.play('SS');
    h.recorder.resume();
    h.play('S');
    h.stream.link('open');
    expect(h.stream.calls()).toEqual(['connect', 'audio 0', 'audio 3']);
  });

  it('a pause while the link is down reaches the service when it opens', () => {
    const h = createHarness();
    h.startStreaming();
    h.play('S');
    h.stream.link('reconnecting');
    h.recorder.pause();
    expect(h.stream.calls()).not.toContain('PAUSE');
    h.stream.link('open');
    expect(h.stream.calls().at(-1)).toBe('PAUSE');
  });

  it('a microphone stall before the first connection opens pauses it as soon as it opens', () => {
    const h = createHarness({ captureStallMs: 1_000, captureStartMs: 1_000 });
    h.recorder.start();
    h.clock.advance(1_000);
    expect(h.recorder.state).toMatchObject({ state: 'connecting', pauseReason: 'mic-stopped' });
    h.stream.link('open');
    expect(h.stream.calls()).toEqual(['connect', 'PAUSE']);
    expect(h.recorder.state.state).toBe('auto-paused');
  });

  it('fails with the reason on a close it did not ask for, then ignores chunks and stops its timers', () => {
    const h = createHarness();
    h.startStreaming();
    h.play('S');
    h.recorder.pause();
    h.stream.link('closed', { closeCode: 4009, reason: 'The service ended the stream after a long pause.' });
    expect(h.recorder.state).toMatchObject({
      state: 'failed',
      pauseReason: null,
      failure: { reason: 'The service ended the stream after a long pause.', closeCode: 4009 },
    });
    const calls = h.stream.log.length;
    h.play('SSSS');
    h.clock.advance(60_000);
    expect(h.stream.log).toHaveLength(calls);
    expect(h.clock.pendingTimers).toBe(0);
  });

  it('words a close without a reason from its code', () => {
    const h = createHarness();
    h.startStreaming();
    h.stream.link('closed', { closeCode: 4009 });
    expect(h.recorder.state.failure).toEqual({
      reason: 'The service closed the stream after a 30-minute pause.',
      closeCode: 4009,
    });
  });
});
