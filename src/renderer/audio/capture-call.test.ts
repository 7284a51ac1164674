import { describe, expect, it } from 'vitest';
import { CallAudio } from './call-audio';
import { CaptureCall, initialCallState } from './capture-call';
import type { CaptureGraph } from './capture-graph';
import type { CallState } from './capture-types';

/** A shared track as the browser hands it over: live until the call's side ends it. */
class FakeTrack extends EventTarget {
  readyState: MediaStreamTrackState = 'live';
  stopped = false;
  readonly label = 'the call';
  stop(): void {
    this.stopped = true;
    this.readyState = 'ended';
  }
  /** The call's window closed, or sharing was stopped from the browser's bar. */
  endFromOutside(): void {
    this.readyState = 'ended';
    this.dispatchEvent(new Event('ended'));
  }
}

function sharedCall(): { call: CallAudio; track: FakeTrack } {
  const track = new FakeTrack();
  const stream = { id: 'call-stream' } as unknown as MediaStream;
  return { call: new CallAudio(stream, track as unknown as MediaStreamTrack), track };
}

/** The graph's two call verbs, logged. */
function fakeGraph(log: string[]): CaptureGraph {
  return {
    addCall: (stream: MediaStream) => log.push(`add ${stream.id}`),
    removeCall: () => log.push('remove'),
  } as unknown as CaptureGraph;
}

describe('the call in one recording', () => {
  it('a live call is recorded, and said to have ended when its track ends', () => {
    const log: string[] = [];
    const states: CallState[] = [];
    const { call, track } = sharedCall();
    const graph = fakeGraph(log);
    const capture = new CaptureCall(
      () => graph,
      (state) => states.push(state),
      call,
    );
    expect(initialCallState(call)).toBe('recording');
    capture.mixInto(graph);
    track.endFromOutside();
    expect(log).toEqual(['add call-stream', 'remove']);
    expect(states).toEqual(['ended']);
  });

  it('a call that ended before the visit started is "ended" from the first moment, and never mixed', () => {
    const log: string[] = [];
    const states: CallState[] = [];
    const { call, track } = sharedCall();
    track.endFromOutside();
    expect(initialCallState(call)).toBe('ended');
    const graph = fakeGraph(log);
    const capture = new CaptureCall(
      () => graph,
      (state) => states.push(state),
      call,
    );
    capture.mixInto(graph);
    expect(log).toEqual([]);
    expect(track.stopped).toBe(true);
    expect(states).toEqual([]);
  });

  it('a call shared again that ended while it was chosen is stopped, and the line keeps what it said', () => {
    const log: string[] = [];
    const states: CallState[] = [];
    const graph = fakeGraph(log);
    const capture = new CaptureCall(
      () => graph,
      (state) => states.push(state),
      undefined,
    );
    expect(initialCallState(undefined)).toBe('not-shared');
    const { call, track } = sharedCall();
    track.endFromOutside();
    capture.use(call);
    expect(track.stopped).toBe(true);
    expect(log).toEqual([]);
    expect(states).toEqual([]);

    // A live one is mixed and said.
    const again = sharedCall();
    capture.use(again.call);
    expect(log).toEqual(['add call-stream']);
    expect(states).toEqual(['recording']);
    capture.stop();
    expect(again.track.stopped).toBe(true);
  });
});
