/** Heap and ArrayBuffer samples after forced full collections (the run needs --expose-gc). */
import { MB } from './constants';
import { sleep } from './tools';

export function forceGc(): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    console.error('Run with --expose-gc: node --expose-gc --import tsx bench/core-encounter/main.ts');
    process.exit(2);
  }
  return gc;
}

export interface Memory {
  /** V8 heap in use (`heapUsed`), MB. */
  heapMb: number;
  /**
   * ArrayBuffers (`arrayBuffers`), MB: V8 keeps typed arrays over 64 bytes off its heap, so every
   * 100 ms of audio the process holds counts here, not in heapUsed.
   */
  buffersMb: number;
}

/** Memory after two full collections. */
export function memoryAfterGc(): Memory {
  const gc = forceGc();
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heapMb: heapUsed / MB, buffersMb: arrayBuffers / MB };
}

export interface HeapTrace {
  /** After sign-in and the first minute of audio. */
  start: Memory;
  /** After End, once the results are in and the stream is done. */
  end: Memory;
  /** After each further minute of audio. */
  minutes: Memory[];
}

/** The trace from the per-minute samples (the first is the start) and a sample taken now. */
export async function traceFrom(samples: Memory[]): Promise<HeapTrace> {
  await sleep(100);
  const [start, ...minutes] = samples;
  return { start: start as Memory, minutes, end: memoryAfterGc() };
}
