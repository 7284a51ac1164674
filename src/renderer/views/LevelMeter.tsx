import { useEffect, useRef } from 'react';
import type { CaptureLevel } from '../audio/capture-types';
import { SILENCE_DBFS } from '../audio/level-meter';
import { elapsedSeconds } from '../store/recording-states';
import { useAppStore, useAppStoreApi } from '../store/use-app-store';

/** −60 dBFS and below shows as an empty bar: a quiet room, not a signal worth showing. */
const FLOOR_DBFS = -60;
const fraction = (dbfs: number) => Math.min(1, Math.max(0, (dbfs - FLOOR_DBFS) / -FLOOR_DBFS));
/**
 * At most four drawings a second in the microphone check: enough to see the microphone hear the
 * room. Each drawing is a frame the compositor and the GPU process make (five a second measured at
 * 1.0–1.4 % of a core over not drawing; docs/benchmarks.md).
 */
const DRAW_EVERY_MS = 250;
/**
 * While a visit records, the meter draws when the visit's clock turns a second, in the same frame
 * as the clock's new text, and once between two ticks: two frames a second for both, where the
 * meter on its own clock made four or five (issue 19).
 */
const DRAW_WITH_CLOCK_EVERY_MS = 500;
/**
 * Levels are shown in steps of this many dB (about 3 % of the bar): the room's noise flickering by
 * a dB or two is not worth a frame, a voice moves the bar by more.
 */
const STEP_DB = 2;
const toStep = (dbfs: number) => STEP_DB * Math.round(Math.max(FLOOR_DBFS, dbfs) / STEP_DB);

/**
 * The microphone's level (RMS bar, peak tick) and, while recording, whether the latest chunk was
 * speech (the mic check has no voice detection, so it shows the level only). Paused by the
 * clinician, it says nothing is recorded.
 *
 * Levels are drawn straight into the elements, not through React: a render per level was the
 * largest part of recording's cost in the page after the voice model (docs/benchmarks.md, issue
 * 19). At most four a second (two while recording, with the visit's clock), in 2 dB steps; a level
 * that rounds to the step already shown is not drawn again, and a hidden window draws nothing until
 * it is shown again.
 */
export function LevelMeter({
  showSpeech = true,
  paused = false,
  withVisitClock = false,
}: {
  showSpeech?: boolean;
  paused?: boolean;
  /** A visit is recording: draw with its clock's ticks (see DRAW_WITH_CLOCK_EVERY_MS). */
  withVisitClock?: boolean;
}) {
  const feed = useAppStore((s) => s.levelFeed);
  const store = useAppStoreApi();
  const meter = useRef<HTMLDivElement>(null);
  const rmsBar = useRef<HTMLDivElement>(null);
  const peakTick = useRef<HTMLDivElement>(null);
  const flag = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    let drawn = { rms: Number.NaN, peak: Number.NaN, speech: '', at: Number.NEGATIVE_INFINITY };
    const draw = (level: CaptureLevel | null, force = false) => {
      if (document.hidden) return;
      const now = performance.now();
      if (!force && now - drawn.at < (withVisitClock ? DRAW_WITH_CLOCK_EVERY_MS : DRAW_EVERY_MS)) return;
      const rms = toStep(level?.rmsDbfs ?? SILENCE_DBFS);
      const peak = toStep(level?.peakDbfs ?? SILENCE_DBFS);
      // Paused by the clinician nothing is recorded, whoever speaks: the flag says that instead.
      const speech = paused ? 'Not recording' : level?.speech ? 'Speech' : 'Quiet';
      if (rms !== drawn.rms && meter.current && rmsBar.current) {
        meter.current.setAttribute('aria-valuenow', String(rms));
        meter.current.setAttribute('aria-valuetext', `${rms} dB`);
        rmsBar.current.style.transform = `scaleX(${fraction(rms)})`;
      }
      if (peak !== drawn.peak && peakTick.current)
        peakTick.current.style.transform = `translateX(calc(${fraction(peak) * 100}cqw - 3px))`;
      if (speech !== drawn.speech && flag.current) {
        flag.current.textContent = speech;
        flag.current.dataset.speech = speech === 'Speech' ? 'yes' : 'no';
      }
      drawn = { rms, peak, speech, at: now };
    };
    draw(feed.current, true);
    const redrawWhenShown = () => draw(feed.current, true);
    document.addEventListener('visibilitychange', redrawWhenShown);
    const stop = feed.subscribe((level) => draw(level));
    // The store tells its subscribers as it changes, in the task that changed it, and React renders
    // the clock's new second in the same task: both land in one frame.
    const stopClock = withVisitClock
      ? store.subscribe((state, before) => {
          if (elapsedSeconds(state) !== elapsedSeconds(before)) draw(feed.current, true);
        })
      : () => undefined;
    return () => {
      stop();
      stopClock();
      document.removeEventListener('visibilitychange', redrawWhenShown);
    };
  }, [feed, paused, store, withVisitClock]);

  return (
    <div className="level">
      <div
        ref={meter}
        className="level-meter"
        role="meter"
        aria-label="Microphone level"
        aria-valuemin={FLOOR_DBFS}
        aria-valuemax={0}
        data-testid="level-meter"
      >
        <div ref={rmsBar} className="level-rms" />
        <div ref={peakTick} className="level-peak" />
      </div>
      {showSpeech && <span ref={flag} className="speech-flag" data-testid="speech-flag" />}
    </div>
  );
}
