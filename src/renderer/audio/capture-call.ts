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
/**
 * What the line says of a call handed to a new recording: one that ended while the microphone was
 * asked for and the visit started (the clinician stopped sharing, the call's window closed) is
 * 'ended' from the first moment, never 'recording'.
 */
export function initialCallState(initial: CallAudio | undefined): CallState {
  if (!initial) return 'not-shared';
  return initial.track.readyState === 'live' ? 'recording' : 'ended';
}

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
    this.state = initialCallState(initial);
    if (initial && this.state === 'recording') {
      this.listen(initial);
      this.call = initial;
    } else initial?.stop();
  }

  /** A call shared during the recording (after a reload, or after the first one ended). */
  use(call: CallAudio): void {
    // Sharing stopped, or the call's window closed, between the choice and now: its 'ended' has
    // fired already, so nothing would ever say so. The line keeps what it said before.
    if (call.track.readyState !== 'live') return call.stop();
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
