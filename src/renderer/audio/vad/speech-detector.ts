// Deep imports on purpose: the package root also loads vad-web's real-time VAD, which brings its own
// AudioWorklet and audio graph. We already have a capture pipeline and need only the decision logic.
import { FrameProcessor, type FrameProcessorEvent } from '@ricky0123/vad-web/dist/frame-processor';
import { Message } from '@ricky0123/vad-web/dist/messages';
import { Silero, type Model, type OrtModule, type SpeechProbabilities } from '@ricky0123/vad-web/dist/models';
import { SERVICE_SAMPLE_RATE } from '../../../shared/audio-format';
import {
  DEFAULT_SPEECH_DETECTOR_OPTIONS,
  validateSpeechDetectorOptions,
  type SpeechDetectorOptions,
} from './speech-detector-options';

/** Silero v5 reads frames of 512 samples at 16 kHz… */
export const SILERO_FRAME_SAMPLES = 512;
/** …which is 32 ms, the unit vad-web counts redemption and minimum speech in. */
const MS_PER_FRAME = (SILERO_FRAME_SAMPLES * 1000) / SERVICE_SAMPLE_RATE;

/**
 * The FrameProcessor keeps every frame of a speech segment so it can hand the segment's audio to
 * `onSpeechEnd` — unbounded while speech lasts (a radio in the room never ends it). We never use that
 * audio, so the processor is given this empty array as "the frame" and the model reads the real frame
 * from `SpeechDetector.frame` instead; the processor then retains nothing but its bookkeeping.
 */
const NO_AUDIO = new Float32Array(0);

/**
 * The energy gate (issue 19): a frame whose loudest sample is below this is silence without asking
 * the model. Speech, even quiet speech across a room, peaks far above it
 * (the conversation fixture's turns peak at −40 dBFS and above; its room noise at −60 to −70).
 */
export const ENERGY_GATE_DBFS = -50;
const GATE_PEAK = 10 ** (ENERGY_GATE_DBFS / 20);
/** The model still hears the first quiet frames after sound, so its state follows the room into silence. */
const GATE_AFTER_QUIET_FRAMES = 4;
const SILENCE: SpeechProbabilities = { isSpeech: 0, notSpeech: 1 };

/**
 * The speech hold (issue 40): inside a speech segment, a frame that follows one the model called
 * speech at least this surely is answered with that frame's probability instead of asking the
 * model again. The model is most of what recording costs above the capture graph, and in a turn
 * it says the same thing frame after frame: on the conversation fixture the hold answers 41 % of
 * the frames the model heard. Only inside a segment, so every onset from silence is the model's
 * own. The model does not hear a held frame, so its memory of the turn differs a little: on the
 * fixture one chunk in a 0.4 s gap between turns went unflagged (the recorder pauses only after
 * seconds of quiet, so nothing changes at the service). Every stretch long enough to auto-pause
 * ends as without the hold and starts within a chunk of it (speech-hold.test.ts; bench/auto-pause
 * measures the speech missing at the service in Chromium).
 */
const HOLD_ABOVE = 0.98;
/** Frames answered in a row by the hold before the model hears one again: 32 ms at most. */
const HOLD_FRAMES = 1;

/** Who answered a frame, and the counter it adds to in `SpeechDetector.frames`. */
type Answer = 'model' | 'gate' | 'hold';
const COUNTED_AS = { model: 'modelled', gate: 'gated', hold: 'held' } as const;

function checkOptions(options: SpeechDetectorOptions): void {
  const problems = validateSpeechDetectorOptions(options);
  if (problems.length > 0) throw new RangeError(`Speech detector options: ${problems.join('; ')}`);
}

/** The verdict for one chunk. */
export interface ChunkVerdict {
  /** The detector was inside a speech segment (speech, or a pause shorter than the redemption). */
  speech: boolean;
  /** The highest speech probability of the model's frames in the chunk, 0…1. */
  probability: number;
}

export interface SpeechDetectorInit {
  /** The onnxruntime-web module: the browser and Node tests load it differently (see load-silero.ts). */
  ort: OrtModule;
  /** silero_vad_v5.onnx. */
  modelBytes: ArrayBuffer;
  options?: SpeechDetectorOptions;
  /** Ask the model about every frame, silence too (the gate off: the reference in tests and benchmarks). */
  noEnergyGate?: boolean;
  /** Ask the model about every frame of a speech segment (the hold off: the reference in tests and benchmarks). */
  noSpeechHold?: boolean;
}

/** Which frames the detector answers without the model (both on in the app). */
interface Shortcuts {
  gate: boolean;
  hold: boolean;
}

/**
 * Says, for each chunk of 16 kHz mono audio, whether someone is speaking: Silero v5 through
 * vad-web's FrameProcessor (thresholds with hysteresis, and a redemption period that bridges short
 * pauses). Chunks may be any length — the capture pipeline's 1,600 samples are not a multiple of
 * Silero's 512, so samples left over carry into the next chunk.
 *
 * The model is stateful, so work runs strictly in call order: a `classify` made while another is
 * still running waits its turn, and `reset` and `dispose` take their place in the same line.
 */
export class SpeechDetector {
  private readonly model: Model;
  private readonly processor: FrameProcessor;
  /** Samples of the next, still incomplete, model frame. */
  private readonly remainder = new Float32Array(SILERO_FRAME_SAMPLES);
  private filled = 0;
  /** The frame the model reads on the processor's next call (see NO_AUDIO). */
  private frame: Float32Array = NO_AUDIO;
  private speaking = false;
  private lastProbability = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly shortcuts: Shortcuts;
  /** Consecutive frames below the gate's level. */
  private quietFrames = 0;
  /** What answers the current frame: the model, the energy gate (silence) or the speech hold. */
  private answer: Answer = 'model';
  /** The probability of the last frame the model itself heard, and frames held since it. */
  private lastModelled = 0;
  private heldInARow = 0;
  /** Frames the model was asked about, and frames the gate and the hold answered (for benchmarks). */
  readonly frames = { modelled: 0, gated: 0, held: 0 };
  private disposal: Promise<void> | undefined;

  /** Loads the model; rejects with every problem if the options are not usable. */
  static async create({
    ort,
    modelBytes,
    options = DEFAULT_SPEECH_DETECTOR_OPTIONS,
    noEnergyGate = false,
    noSpeechHold = false,
  }: SpeechDetectorInit): Promise<SpeechDetector> {
    checkOptions(options);
    const model = await Silero.new(ort, () => Promise.resolve(modelBytes));
    return new SpeechDetector(model, options, { gate: !noEnergyGate, hold: !noSpeechHold });
  }

  /**
   * A detector on a model session made earlier; the detector owns it from here. The session's state
   * starts afresh (the FrameProcessor resets the model as it is made), so a session that has heard
   * other audio, the worker's warm-up, answers as a new one. Throws, the session untouched, if the
   * options are not usable.
   */
  static fromModel(
    model: Model,
    options: SpeechDetectorOptions = DEFAULT_SPEECH_DETECTOR_OPTIONS,
  ): SpeechDetector {
    checkOptions(options);
    return new SpeechDetector(model, options, { gate: true, hold: true });
  }

  private constructor(model: Model, options: SpeechDetectorOptions, shortcuts: Shortcuts) {
    this.model = model;
    this.shortcuts = shortcuts;
    this.processor = new FrameProcessor(
      // A gated frame is silence to the processor (its thresholds and redemption count it as
      // such), a held one the model's last word, neither running the model.
      () => this.probabilities(),
      () => model.reset_state(),
      {
        ...options,
        // The recorder in main keeps its own pre-roll, and we never ask for segment audio.
        preSpeechPadMs: 0,
        submitUserSpeechOnPause: false,
      },
      MS_PER_FRAME,
    );
    // A FrameProcessor starts paused and ignores frames until resumed.
    this.processor.resume();
  }

  /**
   * Classifies `chunk` (samples in [−1, 1]). `speech` is true when the detector was in a speech
   * segment after any model frame that completed in this chunk; a chunk too short to complete a frame
   * repeats the previous verdict. The samples are copied before this returns, so the caller may reuse
   * its buffer at once.
   */
  classify(chunk: Float32Array): Promise<ChunkVerdict> {
    if (this.disposal) return Promise.reject(new Error('SpeechDetector: classify after dispose'));
    // Cut now, not when the queue gets here: the frames must follow call order, and the caller's
    // buffer may be refilled before the queued work runs.
    const frames = this.cut(chunk);
    return this.enqueue(() => this.run(frames));
  }

  /** A new stream (e.g. another microphone): drops the partial frame and the model's memory. */
  reset(): void {
    if (this.disposal) return;
    this.filled = 0;
    void this.enqueue(async () => {
      // Also resets the model's recurrent state, through the reset callback given to the processor.
      this.processor.reset();
      this.speaking = false;
      this.lastProbability = 0;
      this.quietFrames = 0;
      this.lastModelled = 0;
      this.heldInARow = 0;
    });
  }

  /** Releases the model once queued work is done; later `classify` calls reject. */
  dispose(): Promise<void> {
    this.disposal ??= this.enqueue(() => this.model.release());
    return this.disposal;
  }

  /** Complete model frames from the remainder plus `chunk`; the rest becomes the new remainder. */
  private cut(chunk: Float32Array): Float32Array[] {
    const frames: Float32Array[] = [];
    let read = 0;
    while (read < chunk.length) {
      const take = Math.min(SILERO_FRAME_SAMPLES - this.filled, chunk.length - read);
      this.remainder.set(chunk.subarray(read, read + take), this.filled);
      this.filled += take;
      read += take;
      if (this.filled === SILERO_FRAME_SAMPLES) {
        // The one copy per frame: Silero keeps its tail as context after the call returns.
        frames.push(this.remainder.slice());
        this.filled = 0;
      }
    }
    return frames;
  }

  private async run(frames: Float32Array[]): Promise<ChunkVerdict> {
    if (frames.length === 0) return { speech: this.speaking, probability: this.lastProbability };
    let speech = false;
    let probability = 0;
    try {
      for (const frame of frames) {
        this.frame = frame;
        this.answer = this.passesGate(frame) ? 'gate' : this.holds() ? 'hold' : 'model';
        this.frames[COUNTED_AS[this.answer]]++;
        await this.processor.process(NO_AUDIO, this.onEvent);
        speech ||= this.speaking;
        probability = Math.max(probability, this.lastProbability);
      }
    } finally {
      this.frame = NO_AUDIO;
    }
    return { speech, probability };
  }

  /**
   * Whether the gate answers for this frame: quiet (its peak under ENERGY_GATE_DBFS) after a few
   * quiet frames the model did hear (a stop consonant's gap inside a word is shorter). In a segment's
   * redemption the gate's silence counts as the model's would for room noise. The model keeps the
   * state the last quiet frames it heard left: a state that has heard the room flags the next word a
   * frame sooner than a fresh one (measured on the fixture's turns).
   */
  private passesGate(frame: Float32Array): boolean {
    if (!this.shortcuts.gate) return false;
    let peak = 0;
    for (let k = 0; k < frame.length; k++) {
      const v = Math.abs(frame[k]!);
      if (v > peak) peak = v;
    }
    if (peak >= GATE_PEAK) {
      this.quietFrames = 0;
      return false;
    }
    this.quietFrames++;
    return this.quietFrames > GATE_AFTER_QUIET_FRAMES;
  }

  /** The frame's probabilities, from whatever answers it. */
  private async probabilities(): Promise<SpeechProbabilities> {
    if (this.answer === 'gate') {
      // Silence is the last word now: the next loud frame goes to the model.
      this.lastModelled = 0;
      return SILENCE;
    }
    if (this.answer === 'hold') return { isSpeech: this.lastModelled, notSpeech: 1 - this.lastModelled };
    const heard = await this.model.process(this.frame);
    this.lastModelled = heard.isSpeech;
    return heard;
  }

  /** Whether the speech hold answers for this frame (see HOLD_ABOVE): only right after the model. */
  private holds(): boolean {
    const held =
      this.shortcuts.hold &&
      this.speaking &&
      this.lastModelled >= HOLD_ABOVE &&
      this.heldInARow < HOLD_FRAMES;
    this.heldInARow = held ? this.heldInARow + 1 : 0;
    return held;
  }

  private readonly onEvent = (event: FrameProcessorEvent): void => {
    switch (event.msg) {
      case Message.FrameProcessed:
        this.lastProbability = event.probs.isSpeech;
        break;
      case Message.SpeechStart:
        this.speaking = true;
        break;
      // A misfire is a segment too short to count once it is over; it ended all the same.
      case Message.SpeechEnd:
      case Message.VADMisfire:
        this.speaking = false;
        break;
    }
  };

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task);
    // One failed call must not wedge every later one: the next waits for settlement, not success.
    this.queue = result.catch(() => undefined);
    return result;
  }
}
