import { afterEach, describe, expect, it } from 'vitest';
import { CORE_SPEED_ENV, coreSpeed, roundedSpeed } from '../e2e/support/machine-capacity';

// How many end-to-end tests run at once, and whether the specs that need two full cores run, follow
// this figure: it must not change with a millisecond of noise on the same machine (issue 36).
describe('the e2e suite’s core speed', () => {
  const before = process.env[CORE_SPEED_ENV];
  afterEach(() => {
    if (before === undefined) delete process.env[CORE_SPEED_ENV];
    else process.env[CORE_SPEED_ENV] = before;
  });

  it('counts a core within a fifth of the reference as the reference’s, and a half-speed one as half', () => {
    // 6 ms against 6.6 (a slower day of the same machine) and 7.4 (a compile beside it).
    expect(roundedSpeed(6 / 6.6)).toBe(1);
    expect(roundedSpeed(6 / 7.4)).toBe(1);
    expect(roundedSpeed(1.2)).toBe(1);
    expect(roundedSpeed(0.75)).toBe(0.75);
    expect(roundedSpeed(0.5)).toBe(0.5);
  });

  it('is measured once per run: the runner leaves it for its workers, which take it as it is', () => {
    delete process.env[CORE_SPEED_ENV];
    const measured = coreSpeed();
    expect(measured).toBeGreaterThan(0);
    expect(measured).toBeLessThanOrEqual(1);
    expect(process.env[CORE_SPEED_ENV]).toBe(String(measured));

    // A worker of a run measured at half speed keeps half speed, whatever its own core does now.
    process.env[CORE_SPEED_ENV] = '0.5';
    expect(coreSpeed()).toBe(0.5);
    // Something that is not a speed is measured afresh, not trusted.
    process.env[CORE_SPEED_ENV] = 'fast';
    const remeasured = coreSpeed();
    expect(remeasured).toBeGreaterThan(0);
    expect(process.env[CORE_SPEED_ENV]).toBe(String(remeasured));
  });
});
