import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FromSpeechWorker, ToSpeechWorker } from './speech-worker-messages';
import { loadSpeechDetectorInWorker, type SpeechWorkerPort } from './speech-worker-client';

/** A worker that answers as the test says, and records what it was sent. */
class ScriptedWorker implements SpeechWorkerPort {
  readonly received: ToSpeechWorker[] = [];
  readonly transferred: Transferable[][] = [];
  terminated = false;
  private readonly listeners = {
    message: [] as ((e: MessageEvent) => void)[],
    error: [] as ((e: Event) => void)[],
  };
  constructor(private readonly onMessage: (message: ToSpeechWorker, worker: ScriptedWorker) => void) {}
  postMessage(message: ToSpeechWorker, transfer: Transferable[] = []): void {
    this.received.push(message);
    this.transferred.push(transfer);
    queueMicrotask(() => this.onMessage(message, this));
  }
  addEventListener(type: 'message' | 'error', listener: (event: never) => void): void {
    this.listeners[type].push(listener as never);
  }
  removeEventListener(type: 'message' | 'error', listener: (event: never) => void): void {
    this.listeners[type] = this.listeners[type].filter((l) => l !== (listener as never)) as never;
  }
  /** How many listeners a client left on it. */
  get listening(): number {
    return this.listeners.message.length + this.listeners.error.length;
  }
  answer(message: FromSpeechWorker): void {
    for (const listener of this.listeners.message) listener(new MessageEvent('message', { data: message }));
  }
  fail(): void {
    for (const listener of this.listeners.error) listener(new Event('error'));
  }
  terminate(): void {
    this.terminated = true;
  }
}

/** Loads at once; says "speech" for a chunk whose first sample is above 0.5; lets go when asked. */
const answering = (message: ToSpeechWorker, worker: ScriptedWorker) => {
  if (message.type === 'load') worker.answer({ type: 'ready' });
  if (message.type === 'classify') {
    const speech = message.samples[0]! > 0.5;
    worker.answer({ type: 'verdict', id: message.id, speech, probability: speech ? 0.9 : 0.1 });
  }
  if (message.type === 'release') worker.answer({ type: 'released' });
};

afterEach(() => vi.useRealTimers());

describe('the voice model in a worker', () => {
  it('loads with the settings given, and answers each chunk with its own verdict', async () => {
    const worker = new ScriptedWorker(answering);
    const options = {
      positiveSpeechThreshold: 0.4,
      negativeSpeechThreshold: 0.3,
      redemptionMs: 600,
      minSpeechMs: 100,
    };
    const classifier = await loadSpeechDetectorInWorker(options as never, () => worker);
    expect(worker.received[0]).toEqual({ type: 'load', options });
    const verdicts = await Promise.all([
      classifier.classify(new Float32Array(1600).fill(0.9)),
      classifier.classify(new Float32Array(1600).fill(0.1)),
      classifier.classify(new Float32Array(1600).fill(0.8)),
    ]);
    expect(verdicts).toEqual([
      { speech: true, probability: 0.9 },
      { speech: false, probability: 0.1 },
      { speech: true, probability: 0.9 },
    ]);
  });

  it('matches verdicts to chunks by their number, whatever order they come back in', async () => {
    const held: Extract<ToSpeechWorker, { type: 'classify' }>[] = [];
    const worker = new ScriptedWorker((message, w) => {
      if (message.type === 'load') w.answer({ type: 'ready' });
      if (message.type === 'classify') held.push(message);
    });
    const classifier = await loadSpeechDetectorInWorker(undefined, () => worker);
    const first = classifier.classify(new Float32Array(4).fill(0.9));
    const second = classifier.classify(new Float32Array(4).fill(0.1));
    await vi.waitFor(() => expect(held).toHaveLength(2));
    worker.answer({ type: 'verdict', id: held[1]!.id, speech: false, probability: 0.2 });
    worker.answer({ type: 'verdict', id: held[0]!.id, speech: true, probability: 0.7 });
    expect(await first).toEqual({ speech: true, probability: 0.7 });
    expect(await second).toEqual({ speech: false, probability: 0.2 });
  });

  it("sends a copy: the capture's buffer stays whole for its next chunk", async () => {
    const worker = new ScriptedWorker(answering);
    const classifier = await loadSpeechDetectorInWorker(undefined, () => worker);
    const buffer = new Float32Array(1600).fill(0.7);
    await classifier.classify(buffer);
    expect(buffer.length).toBe(1600);
    expect(buffer[0]).toBeCloseTo(0.7);
    const sent = worker.received[1] as Extract<ToSpeechWorker, { type: 'classify' }>;
    // The copy's memory went to the worker (transferred), not the capture's.
    expect(worker.transferred[1]).toEqual([sent.samples.buffer]);
    expect(sent.samples.buffer).not.toBe(buffer.buffer);
  });

  it('a model that does not load rejects with the reason, and the worker is ended', async () => {
    const worker = new ScriptedWorker((message, w) => {
      if (message.type === 'load')
        w.answer({ type: 'failed', message: 'Could not load the speech model (HTTP 404)' });
    });
    await expect(loadSpeechDetectorInWorker(undefined, () => worker)).rejects.toThrow(
      'The voice model did not load: Could not load the speech model (HTTP 404)',
    );
    expect(worker.terminated).toBe(true);
  });

  it('a worker whose script never runs rejects the load', async () => {
    const worker = new ScriptedWorker((message, w) => {
      if (message.type === 'load') w.fail();
    });
    await expect(loadSpeechDetectorInWorker(undefined, () => worker)).rejects.toThrow(
      'The voice-detection worker stopped',
    );
    expect(worker.terminated).toBe(true);
  });

  it('a worker that breaks mid-visit fails the chunks waiting and every later one, so each goes out as speech', async () => {
    const worker = new ScriptedWorker((message, w) => {
      if (message.type === 'load') w.answer({ type: 'ready' });
    });
    const classifier = await loadSpeechDetectorInWorker(undefined, () => worker);
    const waiting = classifier.classify(new Float32Array(4));
    await Promise.resolve();
    worker.fail();
    await expect(waiting).rejects.toThrow('The voice-detection worker stopped');
    await expect(classifier.classify(new Float32Array(4))).rejects.toThrow(
      'The voice-detection worker stopped',
    );
  });

  it('one chunk the model could not classify fails alone', async () => {
    const worker = new ScriptedWorker((message, w) => {
      if (message.type === 'load') w.answer({ type: 'ready' });
      if (message.type === 'classify' && message.id === 0)
        w.answer({ type: 'failed', id: 0, message: 'bad frame' });
      else answering(message, w);
    });
    const classifier = await loadSpeechDetectorInWorker(undefined, () => worker);
    await expect(classifier.classify(new Float32Array(4))).rejects.toThrow('bad frame');
    expect(await classifier.classify(new Float32Array(4).fill(0.9))).toEqual({
      speech: true,
      probability: 0.9,
    });
  });

  it('dispose lets the worker free the model and hands it back for the next visit, listening to nothing; a worker that never answers is ended after a second', async () => {
    const polite = new ScriptedWorker(answering);
    const handedBack: ScriptedWorker[] = [];
    const first = await loadSpeechDetectorInWorker(
      undefined,
      () => polite,
      (w) => handedBack.push(w),
    );
    await first.dispose();
    expect(polite.received.at(-1)).toEqual({ type: 'release' });
    expect(handedBack).toEqual([polite]);
    expect(polite.terminated).toBe(false);
    expect(polite.listening).toBe(0);
    await expect(first.classify(new Float32Array(4))).rejects.toThrow('disposed');
    // The next visit in the same worker: a model of its own, its verdicts its own.
    const second = await loadSpeechDetectorInWorker(
      undefined,
      () => polite,
      (w) => handedBack.push(w),
    );
    expect(await second.classify(new Float32Array(4).fill(0.9))).toEqual({ speech: true, probability: 0.9 });
    expect(polite.received.filter((m) => m.type === 'load')).toHaveLength(2);

    // Nowhere to hand it back: ended.
    const alone = new ScriptedWorker(answering);
    await (await loadSpeechDetectorInWorker(undefined, () => alone)).dispose();
    expect(alone.terminated).toBe(true);

    vi.useFakeTimers();
    const silent = new ScriptedWorker((message, w) => {
      if (message.type === 'load') w.answer({ type: 'ready' });
    });
    const classifier = await loadSpeechDetectorInWorker(undefined, () => silent);
    const disposing = classifier.dispose();
    await vi.advanceTimersByTimeAsync(999);
    expect(silent.terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await disposing;
    expect(silent.terminated).toBe(true);
    await expect(classifier.classify(new Float32Array(4))).rejects.toThrow('disposed');
  });

  it('a worker that broke mid-visit is ended at dispose, never handed back', async () => {
    const worker = new ScriptedWorker(answering);
    const handedBack: ScriptedWorker[] = [];
    const classifier = await loadSpeechDetectorInWorker(
      undefined,
      () => worker,
      (w) => handedBack.push(w),
    );
    worker.fail();
    await classifier.dispose();
    expect(handedBack).toEqual([]);
    expect(worker.terminated).toBe(true);
  });
});
