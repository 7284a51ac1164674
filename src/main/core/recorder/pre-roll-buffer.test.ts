import { describe, expect, it } from 'vitest';
import { PreRollBuffer } from './pre-roll-buffer';
import { chunksFromPattern, makeChunk, range } from './testing/chunks';
import { FakeClock } from '../testing/fake-clock';

describe('PreRollBuffer', () => {
  it('keeps exactly the newest preRollMs of 100 ms chunks, oldest first', () => {
    const buffer = new PreRollBuffer(600);
    for (const chunk of chunksFromPattern('..........', 40)) buffer.push(chunk);
    expect(buffer.seqs).toEqual(range(44, 49));
    expect(buffer.durationMs).toBe(600);
  });

  it('hands every chunk over once: drain empties it', () => {
    const buffer = new PreRollBuffer(300);
    for (const chunk of chunksFromPattern('....')) buffer.push(chunk);
    expect(buffer.drain().map((c) => c.seq)).toEqual([1, 2, 3]);
    expect(buffer.drain()).toEqual([]);
    expect(buffer.durationMs).toBe(0);
  });

  it('covers at least preRollMs when chunks do not divide it evenly', () => {
    const buffer = new PreRollBuffer(500);
    const chunk = (seq: number, ms: number) => ({ ...makeChunk(seq, false), pcm: new Uint8Array(ms * 32) });
    [chunk(0, 200), chunk(1, 200), chunk(2, 200), chunk(3, 200)].forEach((c) => buffer.push(c));
    expect(buffer.seqs).toEqual([1, 2, 3]);
    expect(buffer.durationMs).toBe(600);
  });

  it('keeps nothing when preRollMs is 0', () => {
    const buffer = new PreRollBuffer(0);
    buffer.push(makeChunk(0, false));
    expect(buffer.seqs).toEqual([]);
  });
});

describe('FakeClock (the tests depend on it)', () => {
  it('fires timers in due order, repeats, and cancels', () => {
    const clock = new FakeClock();
    const fired: string[] = [];
    const stopTick = clock.every(300, () => fired.push(`tick@${clock.now()}`));
    clock.after(500, () => fired.push(`once@${clock.now()}`));
    const cancelled = clock.after(400, () => fired.push('never'));
    cancelled();
    clock.advance(900);
    stopTick();
    clock.advance(1_000);
    expect(fired).toEqual(['tick@300', 'once@500', 'tick@600', 'tick@900']);
    expect(clock.now()).toBe(1_900);
    expect(clock.pendingTimers).toBe(0);
  });
});
