import { useEffect, useRef, type RefObject } from 'react';
import type { CaptureLevel } from '../../audio/capture-types';
import { SILENCE_DBFS, type AudioLevel } from '../../audio/level-meter';
import { onWindowShownChange, windowShown } from '../../screen/window-shown';
import { elapsedSeconds } from '../../store/recording-states';
import { useAppStore, useAppStoreApi } from '../../store/use-app-store';
import './level-meter.css';

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

/** One bar's elements, drawn into directly. */
interface BarRefs {
  meter: RefObject<HTMLDivElement | null>;
  rms: RefObject<HTMLDivElement | null>;
  peak: RefObject<HTMLDivElement | null>;
}

/** What a bar shows now, in steps: a level that rounds to the step already shown is not drawn. */
interface Drawn {
  rms: number;
  peak: number;
}

const NOTHING_DRAWN: Drawn = { rms: Number.NaN, peak: Number.NaN };

/** Draws `level` into one bar where it moved by a step; returns what the bar shows now. */
function drawBar(bar: BarRefs, level: AudioLevel | null | undefined, drawn: Drawn): Drawn {
  const rms = toStep(level?.rmsDbfs ?? SILENCE_DBFS);
  const peak = toStep(level?.peakDbfs ?? SILENCE_DBFS);
  if (rms !== drawn.rms && bar.meter.current && bar.rms.current) {
    bar.meter.current.setAttribute('aria-valuenow', String(rms));
    bar.meter.current.setAttribute('aria-valuetext', `${rms} dB`);
    bar.rms.current.style.transform = `scaleX(${fraction(rms)})`;
  }
  if (peak !== drawn.peak && bar.peak.current)
    bar.peak.current.style.transform = `translateX(calc(${fraction(peak) * 100}cqw - 3px))`;
  return { rms, peak };
}

/** One bar: its RMS fill and peak tick, a meter for assistive technology. */
function Bar({ meter, rms, peak, label, testId }: BarRefs & { label: string; testId: string }) {
  return (
    <div
      ref={meter}
      className="level-meter"
      role="meter"
      aria-label={label}
      aria-valuemin={FLOOR_DBFS}
      aria-valuemax={0}
      data-testid={testId}
    >
      <div ref={rms} className="level-rms" />
      <div ref={peak} className="level-peak" />
    </div>
  );
}

/**
 * The microphone's level (RMS bar, peak tick) and, while recording, whether the latest chunk was
 * speech (the mic check has no voice detection, so it shows the level only). In a telehealth visit
 * (`call`) two bars, "You" and "Call", the microphone's and the call's sound (issue 30); the speech
 * flag is the mix's, which is what the voice detection hears. Paused by the clinician, it says
 * nothing is recorded.
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
  call = false,
}: {
  showSpeech?: boolean;
  paused?: boolean;
  /** A visit is recording: draw with its clock's ticks (see DRAW_WITH_CLOCK_EVERY_MS). */
  withVisitClock?: boolean;
  /** A telehealth visit: the call's sound has a bar of its own beside the microphone's. */
  call?: boolean;
}) {
  const feed = useAppStore((s) => s.levelFeed);
  const store = useAppStoreApi();
  const youMeter = useRef<HTMLDivElement>(null);
  const youRms = useRef<HTMLDivElement>(null);
  const youPeak = useRef<HTMLDivElement>(null);
  const callMeter = useRef<HTMLDivElement>(null);
  const callRms = useRef<HTMLDivElement>(null);
  const callPeak = useRef<HTMLDivElement>(null);
  const flag = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    const you = { meter: youMeter, rms: youRms, peak: youPeak };
    const theCall = { meter: callMeter, rms: callRms, peak: callPeak };
    let drawn = { you: NOTHING_DRAWN, call: NOTHING_DRAWN, speech: '', at: Number.NEGATIVE_INFINITY };
    const draw = (level: CaptureLevel | null, force = false) => {
      if (!windowShown()) return;
      const now = performance.now();
      if (!force && now - drawn.at < (withVisitClock ? DRAW_WITH_CLOCK_EVERY_MS : DRAW_EVERY_MS)) return;
      // Paused by the clinician nothing is recorded, whoever speaks: the flag says that instead.
      const speech = paused ? 'Not recording' : level?.speech ? 'Speech' : 'Quiet';
      if (speech !== drawn.speech && flag.current) {
        flag.current.textContent = speech;
        flag.current.dataset.speech = speech === 'Speech' ? 'yes' : 'no';
      }
      drawn = {
        you: drawBar(you, level, drawn.you),
        call: call ? drawBar(theCall, level?.call, drawn.call) : drawn.call,
        speech,
        at: now,
      };
    };
    draw(feed.current, true);
    const stopWhenShown = onWindowShownChange(() => draw(feed.current, true));
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
      stopWhenShown();
    };
  }, [feed, paused, store, withVisitClock, call]);

  const speechFlag = showSpeech && <span ref={flag} className="speech-flag" data-testid="speech-flag" />;
  if (!call) {
    return (
      <div className="level">
        <Bar meter={youMeter} rms={youRms} peak={youPeak} label="Microphone level" testId="level-meter" />
        {speechFlag}
      </div>
    );
  }
  return (
    <div className="level level-sources">
      <span className="level-source" aria-hidden="true">
        You
      </span>
      <Bar
        meter={youMeter}
        rms={youRms}
        peak={youPeak}
        label="Your microphone’s level"
        testId="level-meter"
      />
      {speechFlag}
      <span className="level-source" aria-hidden="true">
        Call
      </span>
      <Bar
        meter={callMeter}
        rms={callRms}
        peak={callPeak}
        label="The call’s level"
        testId="call-level-meter"
      />
    </div>
  );
}
