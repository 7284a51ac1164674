import type { Clock } from '../ports';

interface FakeTimer {
  id: number;
  due: number;
  repeatMs: number | null;
  fn: () => void;
}

/**
 * A clock that only moves when the test says so. advance() fires every timer that falls due, in
 * order of due time (then of creation), with now() equal to that due time while it runs.
 */
export class FakeClock implements Clock {
  private time: number;
  private nextId = 0;
  private readonly timers = new Map<number, FakeTimer>();

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): () => void {
    return this.add(ms, null, fn);
  }

  every(ms: number, fn: () => void): () => void {
    if (!(ms > 0)) throw new Error(`FakeClock.every needs a positive interval, got ${ms}`);
    return this.add(ms, ms, fn);
  }

  advance(ms: number): void {
    const target = this.time + ms;
    for (let timer = this.nextDue(target); timer; timer = this.nextDue(target)) {
      this.time = timer.due;
      if (timer.repeatMs === null) this.timers.delete(timer.id);
      else timer.due += timer.repeatMs;
      timer.fn();
    }
    this.time = target;
  }

  /**
   * advance() for code that awaits between timers (a poll that awaits a status call, then sets
   * its next timer): fires one due timer at a time and lets pending promises settle after each.
   */
  async settle(ms: number): Promise<void> {
    const target = this.time + ms;
    await flushPromises();
    for (let timer = this.nextDue(target); timer; timer = this.nextDue(target)) {
      this.advance(timer.due - this.time);
      await flushPromises();
    }
    this.time = target;
    await flushPromises();
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  private add(ms: number, repeatMs: number | null, fn: () => void): () => void {
    const id = this.nextId++;
    this.timers.set(id, { id, due: this.time + Math.max(0, ms), repeatMs, fn });
    return () => this.timers.delete(id);
  }

  private nextDue(limit: number): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (const timer of this.timers.values()) {
      if (timer.due > limit) continue;
      if (!best || timer.due < best.due || (timer.due === best.due && timer.id < best.id)) best = timer;
    }
    return best;
  }
}

function flushPromises(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
