/** The chunk timer both clients share, so ours and the reference keep the same schedule. */
import { CHUNKS_PER_MINUTE } from './constants';
import { memoryAfterGc, type Memory } from './heap';
import { sleep } from './tools';

/**
 * Plays `count` chunks, one every `intervalMs` of wall clock, catching up at once after a late
 * timer (a replay must not stretch). Samples the heap after each minute of audio when asked.
 */
export async function play(
  count: number,
  intervalMs: number,
  onChunk: (i: number) => void | Promise<void>,
  heap?: Memory[],
): Promise<{ wallMs: number; maxLagMs: number }> {
  const started = performance.now();
  let maxLagMs = 0;
  for (let i = 0; i < count; i++) {
    const due = started + i * intervalMs;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
    maxLagMs = Math.max(maxLagMs, performance.now() - due);
    await onChunk(i);
    if (heap && (i + 1) % CHUNKS_PER_MINUTE === 0) heap.push(memoryAfterGc());
  }
  return { wallMs: performance.now() - started, maxLagMs };
}
