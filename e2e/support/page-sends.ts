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
  /**
   * At each End press, the ms of audio the microphone had delivered (its track's
   * stats.deliveredFramesDuration): with Chromium's fake microphone, how far into its file it was.
   */
  deliveredAtPresses: (number | null)[];
}

type CountedTrack = MediaStreamTrack & { stats?: { deliveredFramesDuration?: number } };

declare global {
  interface Window {
    __pageTiming?: PageTiming;
    /** The microphone the page opened last. */
    __timedMicrophone?: CountedTrack;
  }
}

/**
 * Times the page's audio chunks and End presses in the page itself, free of the test runner's
 * and the DevTools protocol's latency: WebSocket.send is wrapped to note each binary frame, and a
 * capture-phase click listener notes End. Takes effect from the next load (call before reload).
 */
export async function timePageSends(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const timing: PageTiming = { sends: [], endPresses: [], deliveredAtPresses: [] };
    window.__pageTiming = timing;
    const open = MediaDevices.prototype.getUserMedia;
    MediaDevices.prototype.getUserMedia = async function (this: MediaDevices, constraints) {
      const stream = await open.call(this, constraints);
      window.__timedMicrophone = stream.getAudioTracks()[0] ?? window.__timedMicrophone;
      return stream;
    };
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
        if (button?.textContent?.trim().startsWith('End visit')) {
          timing.endPresses.push(clock());
          timing.deliveredAtPresses.push(window.__timedMicrophone?.stats?.deliveredFramesDuration ?? null);
        }
      },
      { capture: true },
    );
  });
}

export async function pageTiming(page: Page): Promise<PageTiming> {
  return page.evaluate(() => window.__pageTiming ?? { sends: [], endPresses: [], deliveredAtPresses: [] });
}

/**
 * Ms of audio the page's microphone has delivered (its track's stats): with Chromium's fake
 * microphone, how far into its file it is; 0 before it opens (a last visit's, ended, counts as none).
 */
export async function heardMs(page: Page): Promise<number> {
  return page.evaluate(() => {
    const microphone = window.__timedMicrophone;
    return microphone?.readyState === 'live' ? (microphone.stats?.deliveredFramesDuration ?? 0) : 0;
  });
}
