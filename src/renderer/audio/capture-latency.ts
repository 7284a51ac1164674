/**
 * How the capture graph's AudioContext renders. It plays nothing, but Web Audio renders whenever the
 * output device asks, and every callback wakes the device's thread and the worklet's: at the
 * default 128-frame quantum and 'interactive' latency that was the largest part of recording's cost
 * in the window after the page's own work (docs/benchmarks.md, issue 19).
 *
 * Each of the output device's callbacks renders 15 ms (16 ms on Linux and macOS, where Chromium
 * rounds it; 20 ms on Windows, whose devices run in 10 ms periods): a third less than 'interactive'
 * in the same run. Chunks leave every 100 ms, sent at the callback that completes them (96 or
 * 112 ms apart here), and End still ends where it was pressed (e2e/end-tail.spec.ts). Larger hints
 * ('playback', 20 ms and up) cost less again but send chunks late and uneven, so auto-pause and the
 * service would see speech later.
 */
export const CAPTURE_RENDER_LATENCY_S = 0.015;

/**
 * Where the engine has a configurable render quantum (`renderSizeHint`; Chromium 156 has it, an
 * engine without it ignores the option), the graph renders one whole chunk, 1,600 frames at
 * 16 kHz, per quantum: the worklet runs ten times a second instead of 125, in the callback whose
 * audio runs out, so chunks keep the same cadence. The graph alone measured 2.75 / 2.40 % of a core
 * against 3.10 / 2.90 % in paired runs. Callbacks of a whole chunk (100 ms) would cost less again
 * (1.5 %), but Web Audio's microphone input then ran dry once in the first seconds of every
 * capture and inserted 10 to 20 ms of silence (measured against the source, quiet and loaded).
 */
export const CHUNK_RENDER_S = 0.1;

/**
 * The capture context's options (AudioContextOptions, with the render quantum TypeScript's DOM
 * library does not have yet; plain data, so the benchmarks' floor page builds the same context).
 */
export interface CaptureContextOptions {
  sampleRate?: number;
  latencyHint: number;
  renderSizeHint?: number;
}

/**
 * The capture context's options at `rate` (Hz), one chunk per render quantum; undefined: the
 * device's rate, unknown until the context exists, so the default quantum.
 */
export function captureContextOptions(rate: number | undefined): CaptureContextOptions {
  if (rate === undefined) return { latencyHint: CAPTURE_RENDER_LATENCY_S };
  return {
    sampleRate: rate,
    latencyHint: CAPTURE_RENDER_LATENCY_S,
    renderSizeHint: Math.round(rate * CHUNK_RENDER_S),
  };
}
