import { CaptureChunker } from '../dsp/capture-chunker';
import { CAPTURE_PROCESSOR_NAME, type FromCaptureWorklet, type ToCaptureWorklet } from './messages';

// The AudioWorkletGlobalScope names this file uses. TypeScript's DOM library has the main-thread
// side (AudioWorkletNode) but not the worklet scope. Declared here, not globally, so the rest of
// the renderer cannot mistake `sampleRate` or `currentTime` for globals of its own scope.
declare abstract class AudioWorkletProcessor {
  readonly port: MessagePort;
  constructor();
  abstract process(
    inputs: Float32Array[][],
    outputs: Float32Array[][],
    parameters: Record<string, Float32Array>,
  ): boolean;
}

declare function registerProcessor(
  name: string,
  processorCtor: new (options?: AudioWorkletNodeOptions) => AudioWorkletProcessor,
): void;

/** The context's sample rate. */
declare const sampleRate: number;

/**
 * The capture AudioWorklet: microphone blocks in, 100 ms chunks of 16 kHz Int16 out, each in a
 * transferred chunk-message buffer. It only frames audio (DESIGN.md, "the worklet only frames
 * audio"): no speech decisions, no levels, no timers. process() allocates nothing but the one
 * postMessage per chunk; buffers come back from the renderer for reuse.
 */
class CaptureProcessor extends AudioWorkletProcessor {
  private readonly chunker: CaptureChunker;
  private stopped = false;
  /** After 'flush' the capture is over: later input is not framed (it is after End). */
  private flushed = false;
  /** The input frame the capture ends at, once 'flush' has said (the audio captured up to End). */
  private flushAt: number | undefined;

  constructor() {
    super();
    // `sampleRate` is the context's rate: 44.1 or 48 kHz usually, 16 kHz makes the resampler a copy.
    const inputRate = sampleRate;
    this.chunker = new CaptureChunker(inputRate, (message, index, inputFrames, audioSamples, final) => {
      const chunk: FromCaptureWorklet = {
        type: 'chunk',
        index,
        message,
        // The context time at which the chunk's last input sample was captured.
        endTime: inputFrames / inputRate,
        audioSamples,
        final,
      };
      this.port.postMessage(chunk, [message]);
    });
    this.port.onmessage = (event: MessageEvent<ToCaptureWorklet>) => {
      const message = event.data;
      if (message.type === 'release') for (const buffer of message.messages) this.chunker.release(buffer);
      else if (message.type === 'flush') {
        // Not known yet (a capture's first second): the capture ends with what is here now.
        this.flushAt = message.untilFrame ?? this.chunker.inputFrames;
        if (this.chunker.inputFrames >= this.flushAt) this.flush(this.flushAt);
      } else this.stopped = true;
    };
  }

  /**
   * End: messages are handled between render quanta, and once input up to the press has been
   * taken (see capture-graph.ts) everything captured up to End is in the chunker; it goes out as
   * the final chunk, less any input past the press that a quantum rendered before this message was
   * handled (a full chunk the resampler's last samples complete is sent first, as an ordinary one),
   * then 'flushed' says nothing more follows.
   */
  private flush(endFrame: number): void {
    if (this.flushed) return;
    this.flushed = true;
    this.chunker.flush(this.chunker.inputFrames - endFrame);
    const done: FromCaptureWorklet = { type: 'flushed' };
    this.port.postMessage(done);
  }

  process(inputs: Float32Array[][]): boolean {
    // Mono: the node is created with channelCount 1 ('explicit'), so Web Audio has already mixed
    // a stereo microphone down. No input (a disconnected source) is simply no audio.
    const samples = inputs[0]?.[0];
    if (samples && !this.flushed) {
      const wanted = this.flushAt === undefined ? samples.length : this.flushAt - this.chunker.inputFrames;
      this.chunker.push(samples, Math.min(samples.length, wanted));
      if (this.flushAt !== undefined && this.chunker.inputFrames >= this.flushAt) this.flush(this.flushAt);
    }
    return !this.stopped;
  }
}

registerProcessor(CAPTURE_PROCESSOR_NAME, CaptureProcessor);
