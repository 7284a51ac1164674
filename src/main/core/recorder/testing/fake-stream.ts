import type { Clock } from '../../ports';
import type {
  StreamEventName,
  StreamLinkChange,
  StreamLinkState,
  StreamPort,
} from '../../stream/stream-port';
import { seqOf } from './chunks';

/** One call the recorder made, as the service would see it: `audio 12`, `PAUSE`, `connect`... */
export interface StreamCall {
  call: string;
  at: number;
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A StreamPort that records every call in order (with the fake clock's time) and lets the test
 * drive the link. abort() behaves like the real client: it reports 'closed', then resolves (or,
 * with holdAbort, waits for settleAbort()). finish() waits for the test's completeFinish().
 */
export class FakeStream implements StreamPort {
  readonly log: StreamCall[] = [];
  readonly bytes = { appended: 0, sent: 0, acked: 0 };
  holdAbort = false;
  private readonly listeners = new Set<(change: StreamLinkChange) => void>();
  private finishing: Deferred | null = null;
  private aborting: Deferred | null = null;

  constructor(private readonly clock: Clock) {}

  connect(): void {
    this.record('connect');
  }

  sendAudio(pcm: Uint8Array): void {
    this.record(`audio ${seqOf(pcm)}`);
    this.bytes.appended += pcm.byteLength;
  }

  sendEvent(event: StreamEventName): void {
    this.record(event);
  }

  finish(): Promise<void> {
    this.record('finish');
    this.finishing = deferred();
    return this.finishing.promise;
  }

  abort(): Promise<void> {
    this.record('abort');
    this.link('closed', { reason: 'aborted' });
    if (!this.holdAbort) return Promise.resolve();
    this.aborting = deferred();
    return this.aborting.promise;
  }

  cancel(): Promise<void> {
    this.record('cancel');
    return Promise.resolve();
  }

  onLinkChange(listener: (change: StreamLinkChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // --- test controls ---

  link(state: StreamLinkState, extra: Omit<StreamLinkChange, 'state'> = {}): void {
    for (const listener of [...this.listeners]) listener({ state, ...extra });
  }

  completeFinish(): void {
    this.finishing?.resolve();
  }

  failFinish(message: string): void {
    this.finishing?.reject(new Error(message));
  }

  settleAbort(): void {
    this.aborting?.resolve();
  }

  ackAll(): void {
    this.bytes.sent = this.bytes.appended;
    this.bytes.acked = this.bytes.appended;
  }

  /** The calls so far, as strings; `since` skips the first ones. */
  calls(since = 0): string[] {
    return this.log.slice(since).map((entry) => entry.call);
  }

  /** The seqs of every audio chunk appended, in order. */
  audioSeqs(): number[] {
    return this.log.filter((e) => e.call.startsWith('audio ')).map((e) => Number(e.call.slice(6)));
  }

  /** When each call with this name happened. */
  times(call: string): number[] {
    return this.log.filter((entry) => entry.call === call).map((entry) => entry.at);
  }

  private record(call: string): void {
    this.log.push({ call, at: this.clock.now() });
  }
}
