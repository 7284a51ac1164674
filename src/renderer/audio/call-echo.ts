/**
 * Whether the microphone hears the call (issue 30): a telehealth visit on speakers instead of a
 * headset. The call's sound is recorded from the computer already, so what the microphone hears of
 * it is a second copy of the patient's voice in the mix. Measured at the service
 * (docs/telehealth.md): about 6 dB under the call's own copy and some tens of ms after it. The
 * browser's echo cancellation removed it, but in browser mode it also changed both voices at the
 * service (the waveform of each correlated 0.6 to 0.9 with its source instead of 0.98 to 1), so
 * the recording keeps the microphone as the clinician set it, and this says when a headset would
 * help: the window then asks for one.
 *
 * Fed each chunk's two levels (the call's and the microphone's, read at the same moment): while
 * the call speaks, an echo makes the microphone's level follow the call's, chunk by chunk; a
 * headset's microphone hears the room then (flat), or the clinician talking over the patient (not
 * following the call). Pure and allocation-free after construction, like the speech detector.
 */
export interface CallEchoOptions {
  /** Chunks remembered: 8 s, of which the call must speak in at least `minCallChunks`. */
  window: number;
  /** Chunks of the call speaking judged together: 4 s of the patient talking. */
  minCallChunks: number;
  /**
   * The microphone may hear the call up to this many chunks after the call's own copy, or before
   * it: the room's path (speakers' buffering and the air, tens of ms) adds to the microphone's
   * side, but the two captures have latencies of their own (a microphone's and the system's or a
   * tab's capture), so in the mix the echo can come out ahead of the call's copy (the e2e saw it
   * 27 to 45 ms ahead) as well as behind it. Within a chunk or two of 100 ms either way.
   */
  maxLagChunks: number;
  /** The call is speaking when its chunk is at least this loud (dBFS RMS). */
  callSpeechDbfs: number;
  /** Correlation of the two levels at which the microphone is taken to hear the call... */
  onAt: number;
  /** ...and under which it no longer is (a gap between the two, so the notice does not flicker). */
  offAt: number;
  /** The microphone's level must come within this many dB of the call's to be an echo worth saying. */
  audibleWithinDb: number;
}

export const CALL_ECHO_DEFAULTS: CallEchoOptions = {
  window: 80,
  minCallChunks: 40,
  maxLagChunks: 2,
  callSpeechDbfs: -45,
  onAt: 0.7,
  offAt: 0.4,
  audibleWithinDb: 30,
};

export class CallEchoDetector {
  private readonly call: Float64Array;
  private readonly mic: Float64Array;
  /** Chunks seen, in all (the ring's newest is at (seen - 1) % window). */
  private seen = 0;
  private heard = false;

  constructor(private readonly options: CallEchoOptions = CALL_ECHO_DEFAULTS) {
    this.call = new Float64Array(options.window);
    this.mic = new Float64Array(options.window);
  }

  /** One chunk's levels (dBFS RMS; the call's null while it is not mixed). Returns whether the microphone hears the call. */
  update(micDbfs: number, callDbfs: number | null): boolean {
    if (callDbfs === null) return this.heard;
    const at = this.seen % this.options.window;
    this.call[at] = callDbfs;
    this.mic[at] = micDbfs;
    this.seen++;
    // Judged as each chunk of the call speaking comes in; silence between turns changes nothing.
    if (callDbfs < this.options.callSpeechDbfs) return this.heard;
    let best = { r: -1, micUnderCallDb: Number.POSITIVE_INFINITY };
    for (let halves = -2 * this.options.maxLagChunks; halves <= 2 * this.options.maxLagChunks; halves++) {
      const measured = this.measure(halves);
      if (measured && measured.r > best.r) best = measured;
    }
    if (!this.heard && best.r >= this.options.onAt && best.micUnderCallDb <= this.options.audibleWithinDb)
      this.heard = true;
    else if (this.heard && best.r > -1 && best.r < this.options.offAt) this.heard = false;
    return this.heard;
  }

  /** The call ended or was replaced: what was heard of it says nothing of the next. */
  reset(): void {
    this.seen = 0;
    this.heard = false;
  }

  /**
   * Pearson correlation of the call's level with the microphone's `halves` half-chunks later
   * (earlier when negative), over the remembered chunks where the call speaks, and how far under
   * the call the microphone sits (dB); undefined while the call has not spoken in enough of them.
   *
   * Half chunks because an echo falls anywhere against the chunks' edges: one that comes half a
   * chunk after the call's copy puts the end of one call chunk and the start of the next into each
   * microphone chunk, and against whole chunks it correlated about 0.7, on the threshold. A
   * simulation of the telehealth fixture's echo (the speakers' file against the call's, 100 ms
   * chunks, the microphone 0, 50 or 100 ms late, with 0 to 24 of a fake microphone's missed
   * reads) missed it in 23 visits of 96 judged by whole chunks, in none by half chunks; the
   * headset's file was heard in none of 32 either way.
   */
  private measure(halves: number): { r: number; micUnderCallDb: number } | undefined {
    const { window, callSpeechDbfs, minCallChunks } = this.options;
    const lag = Math.ceil(halves / 2);
    const between = halves % 2 !== 0;
    const remembered = Math.min(this.seen, window);
    const oldest = this.seen - remembered;
    let n = 0;
    let sumCall = 0;
    let sumMic = 0;
    let sumCallMic = 0;
    let sumCallSquared = 0;
    let sumMicSquared = 0;
    // Only pairs whose two chunks are both remembered.
    for (let k = Math.max(between ? 1 : 0, -lag); k < remembered - Math.max(0, lag); k++) {
      const speaking = this.call[(oldest + k) % window]!;
      if (speaking < callSpeechDbfs) continue;
      // Half a chunk later: the microphone's chunk holds the end of the call's one before too.
      const c = between ? (speaking + this.call[(oldest + k - 1) % window]!) / 2 : speaking;
      const m = this.mic[(oldest + k + lag) % window]!;
      n++;
      sumCall += c;
      sumMic += m;
      sumCallMic += c * m;
      sumCallSquared += c * c;
      sumMicSquared += m * m;
    }
    if (n < minCallChunks) return undefined;
    const covariance = sumCallMic - (sumCall * sumMic) / n;
    const callVariance = sumCallSquared - (sumCall * sumCall) / n;
    const micVariance = sumMicSquared - (sumMic * sumMic) / n;
    const r = callVariance > 0 && micVariance > 0 ? covariance / Math.sqrt(callVariance * micVariance) : 0;
    return { r, micUnderCallDb: (sumCall - sumMic) / n };
  }
}
