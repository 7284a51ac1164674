import { SERVICE_SAMPLE_RATE } from '../../shared/audio-format';
import { captureContextOptions } from './capture-latency';
import { CaptureClock } from './capture-clock';
import type { AudioLevel } from './level-meter';
import { CALL_GAIN, MICROPHONE_GAIN, mixSource, type MixedSource } from './source-mix';
import captureProcessorUrl from './worklet/capture-processor.ts?worker&url';
import { CAPTURE_PROCESSOR_NAME, type FromCaptureWorklet, type ToCaptureWorklet } from './worklet/messages';

export interface CaptureGraph {
  /** The AudioContext's rate, which the worklet resamples from. */
  readonly sampleRate: number;
  /** Hands a chunk-message buffer back to the worklet for reuse (transferred, not copied). */
  release(message: ArrayBuffer): void;
  /**
   * End: the worklet takes the input up to what the microphone had delivered now (the capture
   * clock), however much of it is still in the capture path, and sends what it captured since the
   * last full chunk as a final, shorter chunk (through onChunk, before this resolves); then it frames
   * nothing more. After `drainMs` it ends with what it has; resolves without it if the worklet does
   * not answer at all (a context the system suspended renders nothing).
   */
  flush(drainMs?: number): Promise<void>;
  /**
   * Mixes the call's sound into the capture from now on (telehealth, issue 30), in place of a call
   * mixed before. Its stream stays the caller's: closing the graph does not stop it.
   */
  addCall(stream: MediaStream): void;
  /** Takes the call out of the mix (its sound ended); the microphone goes on alone. */
  removeCall(): void;
  /**
   * Each source's level over the last chunk's time, read when a chunk arrives; null for a source
   * not measured (the microphone of a visit in the room: its chunks are its level) or not mixed.
   */
  sourceLevels(): { microphone: AudioLevel | null; call: AudioLevel | null };
  close(): Promise<void>;
}

/** Details of one chunk from the worklet (see worklet/messages.ts). */
export interface ChunkInfo {
  index: number;
  /** Seconds of input since the graph started, at the chunk's last sample. */
  endTime: number;
  /** Samples of captured audio in it (fewer than 1,600 only in the final chunk). */
  audioSamples: number;
  final: boolean;
}

/**
 * Chunk buffers go back to the worklet five at a time: each message to its thread cost the page's
 * thread about 0.2 ms (0.2 % of a core at ten a second). The worklet's pool holds enough for the
 * chunks in between (dsp/chunk-pool.ts).
 */
const RELEASE_BATCH = 5;

/**
 * The longest End waits for the capture path to bring the audio heard up to the press: the backlog
 * measured on a busy machine was 0.55 s (issue 37), which a context running at 0.8 of real time
 * renders in 0.7 s. Past it, End takes what the worklet has.
 */
export const DRAIN_LIMIT_MS = 2_000;
/** After the drain, a worklet that does not answer in this long is given up (an answer takes a quantum). */
const FLUSH_ANSWER_MS = 500;

export interface CaptureGraphOptions {
  /**
   * The AudioContext's rate. Default 16 kHz: Chromium's own resampler brings the microphone down
   * and the worklet only frames, which measured at half the CPU of resampling in the worklet
   * (docs/benchmarks.md, "Capture in Chromium: which resampler"). 'device' runs the context at the
   * device's rate and the worklet resamples with our filter; it is also the fallback where a
   * 16 kHz context cannot take the microphone.
   */
  contextSampleRate?: number | 'device';
  /**
   * A telehealth visit: each source's level is measured on its own (sourceLevels), the call's
   * from the moment it is mixed. Off, the graph is the microphone alone, as it always was.
   */
  separateLevels?: boolean;
  /** Each chunk as the worklet finished it. */
  onChunk(message: ArrayBuffer, info: ChunkInfo): void;
  /**
   * The context will not run until the clinician presses something on the page (a browser's
   * autoplay rule, after a reload mid-visit): `start`, called from that press, runs it. Until
   * then the graph waits, the microphone still closed.
   */
  onPressNeeded?(start: () => Promise<void>): void;
}

/**
 * Microphone → MediaStreamSource → gain → the capture worklet, and in a telehealth visit the call's
 * sound beside it into the same input (source-mix.ts). The worklet has no outputs, so nothing
 * reaches the speakers; Chromium pulls output-less worklets by itself. One graph per microphone:
 * a device switch closes this one and builds another (the call is mixed into the new one).
 *
 * The context and the worklet are made ready first and the microphone is opened last, by
 * `openStream`: a microphone delivers from the moment it opens, and whatever it delivers before
 * the worklet is connected is lost (up to a second measured while the VAD model was compiling).
 */
export async function startCaptureGraph(
  openStream: () => Promise<MediaStream>,
  options: CaptureGraphOptions,
): Promise<CaptureGraph> {
  const wanted = options.contextSampleRate ?? SERVICE_SAMPLE_RATE;
  let ready = await readyWorklet(wanted === 'device' ? undefined : wanted, options);
  let stream: MediaStream | undefined;
  try {
    stream = await openStream();
    ready.clock.useMicrophone(deliveredAudio(stream));
    const measured = options.separateLevels === true;
    let microphone: MixedSource;
    try {
      microphone = mixSource(ready.context, stream, MICROPHONE_GAIN, ready.node, measured);
    } catch (error) {
      // Older engines refuse a microphone whose rate differs from the context's: run at its rate.
      if (wanted === 'device' || (error as DOMException).name !== 'NotSupportedError') throw error;
      await ready.context.close();
      ready = await readyWorklet(undefined, options);
      microphone = mixSource(ready.context, stream, MICROPHONE_GAIN, ready.node, measured);
    }
    const { context, node, flushed, clock } = ready;
    let call: MixedSource | undefined;
    let returning: ArrayBuffer[] = [];
    const send = (message: ToCaptureWorklet, transfer: Transferable[] = []) =>
      node.port.postMessage(message, transfer);
    return {
      sampleRate: context.sampleRate,
      release(message) {
        if (message.byteLength === 0) return;
        returning.push(message);
        if (returning.length < RELEASE_BATCH) return;
        send({ type: 'release', messages: returning }, returning);
        returning = [];
      },
      async flush(drainMs = DRAIN_LIMIT_MS) {
        // The audio the microphone had delivered up to now, on the capture clock (capture-clock.ts):
        // the worklet takes input up to that frame, then sends what is left as the final chunk. At
        // the press, up to half a second of it may still be on its way to the worklet.
        send({ type: 'flush', untilFrame: clock.framesAt(performance.now(), context.sampleRate) ?? null });
        if (await answeredWithin(flushed, drainMs)) return;
        // The path did not bring it in time (a context the system slowed or suspended): End now.
        send({ type: 'flush', untilFrame: null });
        await answeredWithin(flushed, FLUSH_ANSWER_MS);
      },
      addCall(callStream) {
        call?.disconnect();
        call = mixSource(context, callStream, CALL_GAIN, node, true);
      },
      removeCall() {
        call?.disconnect();
        call = undefined;
      },
      sourceLevels() {
        return { microphone: microphone.level(), call: call?.level() ?? null };
      },
      async close() {
        send({ type: 'stop' });
        node.port.onmessage = null;
        microphone.disconnect();
        call?.disconnect();
        await context.close();
      },
    };
  } catch (error) {
    await ready.context.close().catch(() => undefined);
    throw error;
  }
}

/** How long a suspended context may take to start by itself before the page asks for a press. */
const START_WITHOUT_PRESS_MS = 1_000;

/**
 * Runs a context created suspended. Without a user gesture since the page loaded (a reload
 * mid-visit), a browser's autoplay rule keeps it suspended and resume() waits: the page is told
 * that a press is needed, and the context runs once it came. In the desktop app and in tests the
 * rule is off and this returns at once. Rejects when the context is closed meanwhile (End).
 */
async function runContext(context: AudioContext, onPressNeeded: CaptureGraphOptions['onPressNeeded']) {
  if (context.state !== 'suspended') return;
  let settle: () => void = () => undefined;
  const running = new Promise<void>((resolve, reject) => {
    settle = () => {
      if (context.state === 'suspended') return;
      context.removeEventListener('statechange', settle);
      if (context.state === 'running') resolve();
      else reject(new Error('the microphone was closed before it could start'));
    };
    context.addEventListener('statechange', settle);
  });
  // Checked again when resume() answers too: an engine may start it without a statechange.
  const start = () => context.resume().then(settle, () => undefined);
  void start();
  if (await answeredWithin(running, START_WITHOUT_PRESS_MS)) return;
  onPressNeeded?.(start);
  await running;
}

/** Whether `answer` settled within `ms`. */
async function answeredWithin(answer: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([answer.then(() => true), late]).finally(() => clearTimeout(timer));
}

/**
 * The audio the microphone has delivered, in ms of its own clock: Chromium's track stats
 * (MediaStreamTrack.stats, not in TypeScript's DOM library yet); undefined in an engine without.
 */
function deliveredAudio(stream: MediaStream): () => number | undefined {
  const track = stream.getAudioTracks()[0] as
    (MediaStreamTrack & { stats?: { deliveredFramesDuration?: unknown } }) | undefined;
  return () => {
    // Never at the cost of a chunk: an engine whose stats throw (a track that ended) has no count.
    try {
      const ms = track?.stats?.deliveredFramesDuration;
      return typeof ms === 'number' && Number.isFinite(ms) ? ms : undefined;
    } catch {
      return undefined;
    }
  };
}

/**
 * The capture context at `rate`, one chunk per render quantum (capture-latency.ts), or at the
 * device's rate and the default quantum when it cannot run at `rate`.
 */
function createContext(rate: number | undefined): AudioContext {
  try {
    return new AudioContext(captureContextOptions(rate));
  } catch (error) {
    if (rate === undefined) throw error;
    return new AudioContext(captureContextOptions(undefined));
  }
}

/** A running context (at `rate`, or the device's when it cannot) with the capture worklet loaded. */
async function readyWorklet(
  rate: number | undefined,
  options: CaptureGraphOptions,
): Promise<{ context: AudioContext; node: AudioWorkletNode; flushed: Promise<void>; clock: CaptureClock }> {
  const context = createContext(rate);
  try {
    await context.audioWorklet.addModule(captureProcessorUrl);
    const node = new AudioWorkletNode(context, CAPTURE_PROCESSOR_NAME, {
      numberOfInputs: 1,
      numberOfOutputs: 0,
      // Web Audio mixes a stereo microphone down to mono before the worklet sees it.
      channelCount: 1,
      channelCountMode: 'explicit',
      channelInterpretation: 'speakers',
    });
    let onFlushed: () => void = () => undefined;
    const flushed = new Promise<void>((resolve) => (onFlushed = resolve));
    const clock = new CaptureClock();
    node.port.onmessage = (event: MessageEvent<FromCaptureWorklet>) => {
      const data = event.data;
      if (data.type === 'flushed') return onFlushed();
      const { message, ...info } = data;
      // The chunk first: the clock only helps End, and nothing of it may cost audio.
      const arrivedAt = performance.now();
      options.onChunk(message, {
        index: info.index,
        endTime: info.endTime,
        audioSamples: info.audioSamples,
        final: info.final,
      });
      if (!info.final) clock.chunkArrived(arrivedAt, info.endTime);
    };
    await runContext(context, options.onPressNeeded);
    return { context, node, flushed, clock };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}
