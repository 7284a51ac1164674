import { describe, expect, it } from 'vitest';
import { createLinkFocus, LINK_FOCUS_QUIET_MS } from './link-focus';

function fakeClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms), set: (at: number) => (now = at) };
}

describe('the window comes forward for a visit link', () => {
  it('for the first link, and again only after a few quiet seconds', () => {
    const clock = fakeClock();
    const focus = createLinkFocus(clock);
    expect(focus.linkArrived()).toBe(true);
    clock.advance(LINK_FOCUS_QUIET_MS);
    expect(focus.linkArrived()).toBe(true);
  });

  it('once per burst: links that keep coming, each within the quiet spell of the last, take it no more', () => {
    const clock = fakeClock();
    const focus = createLinkFocus(clock);
    const taken = [focus.linkArrived()];
    for (let i = 0; i < 20; i++) {
      clock.advance(LINK_FOCUS_QUIET_MS - 1);
      taken.push(focus.linkArrived());
    }
    expect(taken).toEqual([true, ...Array<boolean>(20).fill(false)]);
    clock.advance(LINK_FOCUS_QUIET_MS);
    expect(focus.linkArrived()).toBe(true);
  });

  it('a clock set back does not hold the focus off', () => {
    const clock = fakeClock();
    const focus = createLinkFocus(clock, 3_000);
    expect(focus.linkArrived()).toBe(true);
    clock.set(500_000);
    expect(focus.linkArrived()).toBe(true);
  });
});
