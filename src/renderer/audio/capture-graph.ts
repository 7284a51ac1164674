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
  /** Run the AudioContext at this rate (undefined: the device's). See docs/benchmarks.md. */
  contextSampleRate?: number;
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
  const context = new AudioContext({
    latencyHint: 'interactive',
    ...(options.contextSampleRate ? { sampleRate: options.contextSampleRate } : {}),
  });
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
    const source = context.createMediaStreamSource(await openStream());
    source.connect(node);
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
    await context.close().catch(() => undefined);
    throw error;
  }
}
