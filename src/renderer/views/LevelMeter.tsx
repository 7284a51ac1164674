import { SILENCE_DBFS } from '../audio/level-meter';
import { useAppStore } from '../store/use-app-store';

/** −60 dBFS and below shows as an empty bar: a quiet room, not a signal worth showing. */
const FLOOR_DBFS = -60;
const fraction = (dbfs: number) => Math.min(1, Math.max(0, (dbfs - FLOOR_DBFS) / -FLOOR_DBFS));

/**
 * The microphone's level (RMS bar, peak tick) and, while recording, whether the latest chunk was
 * speech (the mic check has no voice detection, so it shows the level only). Paused by the
 * clinician, it says nothing is recorded.
 */
export function LevelMeter({
  showSpeech = true,
  paused = false,
}: {
  showSpeech?: boolean;
  paused?: boolean;
}) {
  const level = useAppStore((s) => s.level);
  const rms = level?.rmsDbfs ?? SILENCE_DBFS;
  const peak = level?.peakDbfs ?? SILENCE_DBFS;
  return (
    <div className="level">
      <div
        className="level-meter"
        role="meter"
        aria-label="Microphone level"
        aria-valuemin={FLOOR_DBFS}
        aria-valuemax={0}
        aria-valuenow={Math.round(Math.max(FLOOR_DBFS, rms))}
        aria-valuetext={`${Math.round(rms)} dB`}
        data-testid="level-meter"
      >
        <div className="level-rms" style={{ transform: `scaleX(${fraction(rms)})` }} />
        <div
          className="level-peak"
          style={{ transform: `translateX(calc(${fraction(peak) * 100}cqw - 3px))` }}
        />
      </div>
      {showSpeech && (
        // Paused by the clinician nothing is recorded, whoever speaks: the flag says that instead.
        <span
          className="speech-flag"
          data-speech={level?.speech && !paused ? 'yes' : 'no'}
          data-testid="speech-flag"
        >
          {paused ? 'Not recording' : level?.speech ? 'Speech' : 'Quiet'}
        </span>
      )}
    </div>
  );
}
