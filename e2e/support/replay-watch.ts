import type { Page } from '@playwright/test';

/**
 * What Play (issue 38) starts in the page, caught where Web Audio starts it: each line's samples
 * and rate, when the press came and when the sound was started (the page's clock, ms) with the
 * output's own latency after that, how often a source was stopped and the output suspended.
 * e2e/replay.spec.ts judges the samples, bench/replay-latency the times.
 *
 * Source text, not a function: bench/ runs under tsx, whose esbuild adds a `__name` helper to
 * functions that the page lacks (bench/support/app-page.ts), and the Node project has no DOM types.
 */
const CATCH_PLAYBACK = `(() => {
  const played = [];
  const state = { played, stopped: 0, pressedAt: 0, suspended: 0 };
  window.__replay = state;
  document.addEventListener('click', (event) => {
    if (event.target && event.target.closest && event.target.closest('[data-testid="play-line"]'))
      state.pressedAt = event.timeStamp;
  }, true);
  const start = AudioBufferSourceNode.prototype.start;
  AudioBufferSourceNode.prototype.start = function (...args) {
    // The time first: copying the samples out takes a moment that is the test's, not the app's.
    const startedAt = performance.now();
    const data = this.buffer ? this.buffer.getChannelData(0) : new Float32Array();
    // Sound leaves the speakers this much after start(): the context's and the device's latency.
    const outputMs = ((this.context.baseLatency || 0) + (this.context.outputLatency || 0)) * 1000;
    played.push({ samples: Array.from(data, (x) => Math.round(x * 32768)), rate: this.playbackRate.value, startedAt, outputMs });
    return start.apply(this, args);
  };
  // Whether the output really stops (a pause suspends the player's context).
  const suspend = AudioContext.prototype.suspend;
  AudioContext.prototype.suspend = function () {
    state.suspended += 1;
    return suspend.call(this);
  };
  const stop = AudioBufferSourceNode.prototype.stop;
  AudioBufferSourceNode.prototype.stop = function (...args) {
    state.stopped += 1;
    return stop.apply(this, args);
  };
})();`;

/** From now on, on every document the page loads: what Play starts is caught. */
export async function catchPlayback(page: Page): Promise<void> {
  await page.addInitScript({ content: CATCH_PLAYBACK });
}

/** What was caught so far, the last Play's samples left out. */
export interface Caught {
  played: number;
  stopped: number;
  pressedAt: number;
  suspended: number;
  rate?: number;
  startedAt?: number;
  outputMs?: number;
}

/**
 * What was caught, without the samples: cheap enough to poll (a line's samples, tens of thousands
 * of numbers, took seconds a read beside two other tests, and the line played out meanwhile).
 */
export const caught = (page: Page): Promise<Caught> =>
  page.evaluate<Caught>(`(() => {
    const { played, stopped, pressedAt, suspended } = window.__replay;
    const last = played.at(-1);
    return { played: played.length, stopped, pressedAt, suspended, rate: last?.rate, startedAt: last?.startedAt, outputMs: last?.outputMs };
  })()`);

/** The samples the last Play started, read once. */
export const lastPlayed = (page: Page): Promise<number[]> =>
  page.evaluate<number[]>('window.__replay.played.at(-1).samples');
