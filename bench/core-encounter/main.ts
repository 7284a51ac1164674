/**
 * A 60-minute encounter replayed at 20× through the main-process core against the sandbox: how much
 * the main process's heap grows over the visit, and (in a separate run at real time) how evenly the
 * core's AUDIO frames leave its socket. Goals from the issue: ≤ 5 MB heap growth over the visit,
 * send-jitter p99 ≤ 30 ms at 1×.
 *
 * Processes: two sandboxes (`sandbox/main.ts`, one at --time-scale 0.05 for the 20× replay, one at
 * 1 for the real-time run), a tiny TCP proxy in front of the real-time sandbox that timestamps every
 * WebSocket frame from client to server, and the reference clients — all started from this file
 * (`--role ...`). The core runs in the main process, driven only through its contract router.
 *
 * Run: node --expose-gc --import tsx bench/core-encounter/main.ts [--minutes 60] [--speed 20] [--jitter-seconds 60]
 */
import { CHUNKS_PER_MINUTE } from './constants';
import { forceGc } from './heap';
import { JITTER_SECONDS, MINUTES, SPEED, values } from './options';
import { stopChildren } from './processes';
import { runProxy } from './proxy';
import { referenceJitter, referenceReplay } from './reference-client';
import { runMain } from './run';
import { visitPlan } from './visit';

async function role(): Promise<void> {
  switch (values.role) {
    case 'main':
      return runMain();
    case 'proxy':
      return runProxy(values.target as string);
    case 'reference-replay': {
      forceGc();
      const plan = visitPlan(Math.round(MINUTES * CHUNKS_PER_MINUTE), 20261122, true);
      console.log(`RESULT ${JSON.stringify(await referenceReplay(values.url as string, plan, SPEED))}`);
      return process.exit(0);
    }
    case 'reference-jitter': {
      const plan = visitPlan(Math.round(JITTER_SECONDS * 10), 7, false);
      console.log(`RESULT ${JSON.stringify(await referenceJitter(values.url as string, plan))}`);
      return process.exit(0);
    }
    default:
      throw new Error(`unknown role ${values.role}`);
  }
}

try {
  await role();
  if (values.role === 'main') process.exit(0);
} catch (error) {
  console.error(error);
  await stopChildren();
  process.exit(1);
}
