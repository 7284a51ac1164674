import { SERVICE_SAMPLE_RATE } from '../../shared/audio-format';
import captureProcessorUrl from './worklet/capture-processor.ts?worker&url';
import { CAPTURE_PROCESSOR_NAME, type FromCaptureWorklet, type ToCaptureWorklet } from './worklet/messages';

export interface CaptureGraph {
  /** The AudioContext's rate, which the worklet resamples from. */
  readonly sampleRate: number;
  /** Hands a chunk-message buffer back to the worklet for reuse (transferred, not copied). */
  release(message: ArrayBuffer): void;
  close(): Promise<void>;
}

export interface CaptureGraphOptions {
  /**
   * The AudioContext's rate. Default 16 kHz: Chromium's own resampler brings the microphone down
   * and the worklet only frames, which measured at half the CPU of resampling in the worklet
   * (docs/benchmarks.md, "Capture in Chromium: which resampler"). 'device' runs the context at the
   * device's rate and the worklet resamples with our filter; it is also the fallback where a
   * 16 kHz context cannot take the microphone.
   */
  contextSampleRate?: number | 'device';
  /** Each chunk as the worklet finished it; `endTime` is seconds of input since the graph started. */
  onChunk(message: ArrayBuffer, index: number, endTime: number): void;
}

/**
 * Microphone → MediaStreamSource → the capture worklet. The worklet has no outputs, so nothing
 * reaches the speakers; Chromium pulls output-less worklets by itself. One graph per microphone:
 * a device switch closes this one and builds another.
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
    let source: MediaStreamAudioSourceNode;
    try {
      source = ready.context.createMediaStreamSource(stream);
    } catch (error) {
      // Older engines refuse a microphone whose rate differs from the context's: run at its rate.
      if (wanted === 'device' || (error as DOMException).name !== 'NotSupportedError') throw error;
      await ready.context.close();
      ready = await readyWorklet(undefined, options);
      source = ready.context.createMediaStreamSource(stream);
    }
    source.connect(ready.node);
    const { context, node } = ready;
    const send = (message: ToCaptureWorklet, transfer: Transferable[] = []) =>
      node.port.postMessage(message, transfer);
    return {
      sampleRate: context.sampleRate,
      release(message) {
        if (message.byteLength > 0) send({ type: 'release', message }, [message]);
      },
      async close() {
        send({ type: 'stop' });
        node.port.onmessage = null;
        source.disconnect();
        await context.close();
      },
    };
  } catch (error) {
    await ready.context.close().catch(() => undefined);
    throw error;
  }
}

/** A running context (at `rate`, or the device's when it cannot) with the capture worklet loaded. */
async function readyWorklet(
  rate: number | undefined,
  options: CaptureGraphOptions,
): Promise<{ context: AudioContext; node: AudioWorkletNode }> {
  let context: AudioContext;
  try {
    context = new AudioContext({ latencyHint: 'interactive', ...(rate ? { sampleRate: rate } : {}) });
  } catch (error) {
    if (!rate) throw error;
    context = new AudioContext({ latencyHint: 'interactive' });
  }
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
    node.port.onmessage = (event: MessageEvent<FromCaptureWorklet>) => {
      options.onChunk(event.data.message, event.data.index, event.data.endTime);
    };
    // A context created without a user gesture may start suspended.
    if (context.state === 'suspended') await context.resume();
    return { context, node };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}
