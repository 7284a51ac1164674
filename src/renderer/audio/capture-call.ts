import type { CallAudio } from './call-audio';
import type { CaptureGraph } from './capture-graph';
import type { CallState } from './capture-types';

/**
 * The call's sound in one recording (issue 30): which call is mixed, and what happens when it
 * ends. The call outlives the microphone's graph (a microphone switch builds a new graph and the
 * call is mixed into it) and ends on its own: the call's window closes, or the clinician stops
 * sharing. Then it leaves the mix and the microphone records on alone; no chunk is lost, since the
 * worklet never stops framing.
 */
export class CaptureCall {
  private call: CallAudio | undefined;
  private state: CallState;

  constructor(
    /** The graph the microphone records into now (none while it is being switched). */
    private readonly graph: () => CaptureGraph | undefined,
    private readonly onState: (state: CallState) => void,
    /** Whether the recording started with the call shared ('recording') or without ('not-shared'). */
    initial: CallAudio | undefined,
  ) {
    this.state = initial ? 'recording' : 'not-shared';
    if (initial) this.listen(initial);
    this.call = initial;
  }

  /** A call shared during the recording (after a reload, or after the first one ended). */
  use(call: CallAudio): void {
    const before = this.call;
    this.call = call;
    this.listen(call);
    before?.stop();
    this.graph()?.addCall(call.stream);
    this.set('recording');
  }

  /** Mixes the call, if it is still on, into a graph just built (a microphone switch). */
  mixInto(graph: CaptureGraph): void {
    if (this.call && this.call.track.readyState === 'live') graph.addCall(this.call.stream);
  }

  /** The recording is over: the call's sound is no longer taken. */
  stop(): void {
    this.call?.stop();
    this.call = undefined;
  }

  private listen(call: CallAudio): void {
    call.track.addEventListener('ended', () => {
      // An older call replaced by a new one ends too: only the current one matters.
      if (this.call !== call) return;
      this.call = undefined;
      this.graph()?.removeCall();
      this.set('ended');
    });
  }

  private set(state: CallState): void {
    if (state === this.state) return;
    this.state = state;
    this.onState(state);
  }
}
