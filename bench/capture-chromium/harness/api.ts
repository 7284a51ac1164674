/**
 * What the harness page exposes to the benchmark (as `globalThis.harness`), shared by both sides.
 * Types only: the page runs in Chromium, the benchmark in Node.
 */

/** One way of opening the microphone into Web Audio. */
export interface CaptureConfig {
  /** Feed the capture worklet ('scribe-capture'); false = the reference, no worklet. */
  worklet: boolean;
  /** The AudioContext's rate; undefined = Chromium's default for the output device. */
  contextRate?: number;
}

export interface CaptureStarted {
  contextRate: number;
  /** What the microphone track reports (getSettings().sampleRate), if anything. */
  trackRate: number | undefined;
}

export interface CaptureResult {
  /** The 16 kHz Int16 LE samples of every chunk, in order, base64 (none for the reference). */
  samplesBase64: string;
  chunks: number;
  /** endTime of the last chunk: seconds of input the worklet had received. */
  lastEndTime: number;
  /** The context's currentTime at stop, to compare with lastEndTime (input lost on the way). */
  contextTime: number;
}

export interface ProbeResult {
  trackSettings: { sampleRate?: number; channelCount?: number };
  /** The rate of the AudioData frames the track actually delivers (MediaStreamTrackProcessor). */
  deliveredRate: number | undefined;
  deliveredFrames: number | undefined;
  deliveredFormat: string | undefined;
  defaultContextRate: number;
  defaultContextBaseLatency: number;
}

export interface HarnessApi {
  probe(): Promise<ProbeResult>;
  start(config: CaptureConfig): Promise<CaptureStarted>;
  stop(): Promise<CaptureResult>;
}
