/** Send jitter, from the proxy's `A <session> <ms>` lines: how evenly AUDIO frames arrived. */
import type { ChildProcess } from 'node:child_process';
import { percentile } from '../report';
import { CHUNK_MS } from './constants';
import { lines } from './processes';

/** Collects the proxy's AUDIO frame times by session, as they are printed. */
export function audioFrameTimes(proxy: ChildProcess): Map<string, number[]> {
  const audioFrames = new Map<string, number[]>();
  lines(proxy, (line) => {
    const [kind, session, at] = line.split(' ');
    if (kind !== 'A' || !session) return;
    let times = audioFrames.get(session);
    if (!times) audioFrames.set(session, (times = []));
    times.push(Number(at));
  });
  return audioFrames;
}

export type Jitter = ReturnType<typeof jitter>;

/** p50 and p99 of |interval − 100 ms| between successive AUDIO frames. */
export function jitter(times: number[]): { p50: number; p99: number; max: number; frames: number } {
  const deviations = times.slice(1).map((t, i) => Math.abs(t - (times[i] as number) - CHUNK_MS));
  return {
    p50: percentile(deviations, 50),
    p99: percentile(deviations, 99),
    max: Math.max(...deviations),
    frames: times.length,
  };
}
