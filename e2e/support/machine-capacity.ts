import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * How many end-to-end tests may run at once on this machine (issue 36).
 *
 * Each test plays its audio in real time through Chromium's fake microphone, whose device threads
 * run at the same priority as everything else. Starved of CPU they fall behind: the fake input
 * device skips its reads (Web Audio then fills the gap with zeros, and the file plays on late) and
 * the fake output that clocks the capture renders less than real time. Measured with the capture
 * alone in a cgroup of one core: 1.00× real time and 0.1 s of zeros in 30 s; beside one busy
 * process 0.93× and 0.4 s; beside two 0.82× and 1.2 s, while the page's own thread stayed 80 %
 * idle (docs/reliability.md, "A machine half as fast"). Three tests at once on two full cores keep
 * the devices fed; on a machine with half of that, three at once starved them and 18 tests failed
 * on audio that never came.
 *
 * So the number follows the CPU this run really has: the cores it may use (a cgroup's quota, as
 * scripts/slow-machine.sh sets, counts) times how fast a core is against the machines the suite
 * was tuned on, with three at once for two full cores.
 */
export function e2eWorkers(): number {
  const capacity = usableCores() * coreSpeed();
  return Math.max(1, Math.min(3, Math.floor(capacity * WORKERS_PER_CORE + 0.001)));
}

/** Three at once on two full cores (README, "Tests"). */
const WORKERS_PER_CORE = 1.5;

/**
 * What the calibration below takes on the 2-core machines the suite was tuned on, ms (fastest of
 * five: 5.6–5.9 measured, with and without a load of 10 beside it).
 */
const REFERENCE_CALIBRATION_MS = 6;

/**
 * A core this close to the reference counts as the reference's. The same machine measures the
 * calibration at 5.6–5.9 ms on one day and 6.3–6.6 ms on another, and up to 8 ms beside a compile:
 * read exactly, a speed of 0.93 made two workers of three and skipped the specs that need two full
 * cores, and which tests CI ran changed from run to run (8 of 11 fresh-clone runs, sessions 26–29,
 * ran two at once). A machine half as fast (issue 36: the capture graph at 3.97 % of a core against
 * 2.00 %) is far outside it.
 */
const SAME_SPEED_WITHIN = 0.2;

/** The cores this process may use: the machine's, or fewer under a CPU quota (cgroup v2 or v1). */
export function usableCores(): number {
  const quota = cgroupQuotaCores();
  return Math.min(availableParallelism(), quota ?? Infinity);
}

/**
 * How fast one core is against the reference machine (1 there, 0.5 on one half as fast), from a
 * fixed piece of work timed here: SHA-256 over 8 MiB, the fastest of 20 so that a moment of other
 * work does not count. Capped at 1: a faster machine runs the same three; within
 * SAME_SPEED_WITHIN of the reference, 1.
 *
 * Measured once per run: the runner measures as it loads playwright.config.ts, before any test, and
 * its workers inherit the figure (CORE_SPEED_ENV). A worker measuring for itself would measure the
 * other workers' tests.
 */
export function coreSpeed(): number {
  const inherited = Number(process.env[CORE_SPEED_ENV]);
  if (inherited > 0 && inherited <= 1) return inherited;
  const speed = roundedSpeed(REFERENCE_CALIBRATION_MS / fastestCalibrationMs());
  process.env[CORE_SPEED_ENV] = String(speed);
  return speed;
}

/** Where the runner leaves its measured core speed for its workers. */
export const CORE_SPEED_ENV = 'SCRIBE_E2E_CORE_SPEED';

/** A measured speed ratio as the suite uses it: 1 within SAME_SPEED_WITHIN of the reference, or faster. */
export function roundedSpeed(measured: number): number {
  return measured >= 1 - SAME_SPEED_WITHIN ? 1 : measured;
}

function fastestCalibrationMs(): number {
  const data = Buffer.alloc(8 * 1024 * 1024, 7);
  let fastest = Infinity;
  for (let run = 0; run < 20; run++) {
    const started = performance.now();
    createHash('sha256').update(data).digest();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

/** The CPU quota of this process's cgroup, in cores; undefined where there is none. */
function cgroupQuotaCores(): number | undefined {
  let lines: string[];
  try {
    lines = readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n');
  } catch {
    return undefined; // not Linux
  }
  const quotas: number[] = [];
  for (const line of lines) {
    const [, controllers, path] = line.split(':');
    if (controllers === '' && path !== undefined) {
      // cgroup v2: "max 100000" or "100000 100000", at this group and each one above it.
      for (const dir of ancestors(`/sys/fs/cgroup${path}`, '/sys/fs/cgroup')) {
        const [max, period] = readText(`${dir}/cpu.max`)?.split(' ') ?? [];
        if (max && max !== 'max' && period) quotas.push(Number(max) / Number(period));
      }
    } else if (controllers?.split(',').includes('cpu') && path !== undefined) {
      for (const mount of ['/sys/fs/cgroup/cpu', '/sys/fs/cgroup/cpu,cpuacct']) {
        for (const dir of ancestors(`${mount}${path}`, mount)) {
          const quota = Number(readText(`${dir}/cpu.cfs_quota_us`));
          const period = Number(readText(`${dir}/cpu.cfs_period_us`));
          if (quota > 0 && period > 0) quotas.push(quota / period);
        }
      }
    }
  }
  return quotas.length > 0 ? Math.min(...quotas) : undefined;
}

function ancestors(dir: string, root: string): string[] {
  const found = [dir.replace(/\/$/, '')];
  while (found.at(-1)!.length > root.length) found.push(found.at(-1)!.replace(/\/[^/]*$/, ''));
  return found;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}
