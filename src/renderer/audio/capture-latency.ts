/**
 * How long each of the output device's callbacks renders, in seconds: 15 ms. The graph plays
 * nothing, but Web Audio renders whenever the output device asks, and each callback wakes the
 * device's thread and the worklet's. At 'interactive' (10 ms) that was the largest part of
 * recording's cost in the window after the page's own work; 15 ms (two render quanta of 16 kHz per
 * callback on Linux and macOS, where Chromium rounds it to 16 ms; 20 ms on Windows, whose devices
 * run in 10 ms periods) cost a third less in the same run (docs/benchmarks.md, issue 19). Chunks
 * still leave every 100 ms, sent at the callback that completes them (96 or 112 ms apart here),
 * and End still ends where it was pressed (e2e/end-tail.spec.ts). Larger hints ('playback', 20 ms
 * and up) cost less again but send chunks late and uneven, so auto-pause and the service would see
 * speech later.
 */
export const CAPTURE_RENDER_LATENCY_S = 0.015;
