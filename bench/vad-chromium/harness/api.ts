/**
 * What the VAD harness page exposes to the benchmark (as `globalThis.vadHarness`), shared by both
 * sides. Types only: the page runs in Chromium, the benchmark in Node.
 */

/** Silero as the app loads it, or the same SpeechDetector with the model replaced by a replay. */
export type PassKind = 'silero' | 'no-model';

export interface Loaded {
  /** loadSpeechDetector(): fetching the model and creating the onnxruntime-web session, ms. */
  loadMs: number;
  /** 512-sample frames in the audio given. */
  frames: number;
}

export interface PassResult {
  kind: PassKind;
  /** Each 512-sample frame's `classify()` call, ms (performance.now(), as coarse as the page allows). */
  frameMs: number[];
  /** The whole pass, ms: its mean per frame does not suffer the timer's coarseness. */
  totalMs: number;
  /** The detector's verdict after each frame: inside a speech segment. */
  speech: boolean[];
  /** Silero's speech probability of each frame. */
  probability: number[];
  /** performance.now()'s smallest step seen in the page, ms (the timer's resolution). */
  timerStepMs: number;
}

/** The same frames back to back, and then as a visit feeds them: a chunk's worth every 100 ms. */
export interface PacedResult {
  /** The app's detector (the speech hold on), or the same detector with the hold off (issue 40). */
  hold: boolean;
  /** 512-sample frames classified in each of the two runs. */
  frames: number;
  /** Of them, the frames the model itself heard at the visit's pace (not the gate's or the hold's). */
  modelled: number;
  /** The `classify()` calls' time, all frames back to back, ms. */
  backToBackMs: number;
  /** The same calls' time when each 100 ms chunk's frames come 100 ms after the last ones, ms. */
  pacedMs: number;
}

export interface VadHarnessApi {
  /** Takes 16 kHz mono Int16 LE samples (base64) and loads the app's speech detector. */
  load(samplesBase64: string): Promise<Loaded>;
  /** One pass over every frame; `no-model` replays `probabilities` instead of running the model. */
  pass(kind: PassKind, probabilities?: number[]): Promise<PassResult>;
  /**
   * The first `seconds` of the audio through Silero back to back, then at the visit's pace; with the
   * app's detector, or (`hold` false) the same detector with the speech hold off.
   */
  paced(seconds: number, hold: boolean): Promise<PacedResult>;
}
