import type { Page } from '@playwright/test';

/** One binary frame (an audio chunk) the page handed to its contract socket, timed in the page. */
export interface TimedSend {
  /** Epoch ms on the page's own clock (performance.timeOrigin + performance.now()) at send(). */
  at: number;
  /** Samples of audio in the chunk (its bytes after the 16-byte header, / 2). */
  samples: number;
}

/** What the page recorded: every chunk it sent and every press of End, on its own clock. */
export interface PageTiming {
  sends: TimedSend[];
  /** When the End button's click handlers ran (a capture-phase listener runs just before React's). */
  endPresses: number[];
}

declare global {
  interface Window {
    __pageTiming?: PageTiming;
  }
}

/**
 * Times the page's audio chunks and End presses in the page itself, free of the test runner's
 * and the DevTools protocol's latency: WebSocket.send is wrapped to note each binary frame, and a
 * capture-phase click listener notes End. Takes effect from the next load (call before reload).
 */
export async function timePageSends(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const timing: PageTiming = { sends: [], endPresses: [] };
    window.__pageTiming = timing;
    const clock = () => performance.timeOrigin + performance.now();
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (this: WebSocket, data) {
      if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
        timing.sends.push({ at: clock(), samples: (data.byteLength - 16) / 2 });
      }
      send.call(this, data);
    };
    window.addEventListener(
      'click',
      (event) => {
        const button = (event.target as Element | null)?.closest?.('button');
        if (button?.textContent?.trim().startsWith('End visit')) timing.endPresses.push(clock());
      },
      { capture: true },
    );
  });
}

export async function pageTiming(page: Page): Promise<PageTiming> {
  return page.evaluate(() => window.__pageTiming ?? { sends: [], endPresses: [] });
}

/** Samples the page has sent since `fromSend` (an index into `sends`). */
export async function samplesSent(page: Page, fromSend = 0): Promise<number> {
  return page.evaluate(
    (from) => (window.__pageTiming?.sends ?? []).slice(from).reduce((sum, s) => sum + s.samples, 0),
    fromSend,
  );
}

/**
 * The capture clock: samples captured (16 kHz) since the recording's first chunk, as a function of
 * page time. Each full chunk is sent once its last sample is captured plus a delivery delay
 * (worklet → page, voice detection) that varies; the smallest delay seen over the recording is the
 * best estimate of the fixed part, so the clock is the lower envelope of (send time − captured
 * samples / 16): `samplesAt(t)` = 16 × (t − min over full chunks of (sent_k − end_k / 16)).
 * The clock therefore lags the worklet by that smallest delay (a few ms of voice detection): an End
 * press reads a little early on it, which makes a distance measured from End larger, not smaller.
 */
export function captureClock(sends: TimedSend[]): { samplesAt(at: number): number; offsetMs: number } {
  let end = 0;
  let offset = Infinity;
  for (const send of sends) {
    end += send.samples;
    if (send.samples === 1_600) offset = Math.min(offset, send.at - end / 16);
  }
  return { samplesAt: (at) => (at - offset) * 16, offsetMs: offset };
}
