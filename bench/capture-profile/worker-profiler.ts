/**
 * A V8 CPU profile of the page's voice-detection worker (bench/capture-profile), where Silero runs.
 * Playwright gives CDP sessions for pages only, so the page's session attaches to its workers
 * itself, unflattened: each command goes to the worker inside `Target.sendMessageToTarget`, and its
 * answer comes back in `Target.receivedMessageFromTarget`.
 */
import type { CDPSession } from '@playwright/test';
import type { CpuProfile } from './profile-attribution';

interface Attached {
  sessionId: string;
  targetInfo: { type: string; url: string };
}

export interface WorkerProfiler {
  start(): Promise<void>;
  stop(): Promise<CpuProfile>;
}

/** Attaches to the page's dedicated worker whose script URL matches `script`. */
export async function profileWorker(page: CDPSession, script: RegExp): Promise<WorkerProfiler> {
  const attached: Attached[] = [];
  const answers = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  page.on('Target.attachedToTarget', (event) => attached.push(event as Attached));
  page.on('Target.receivedMessageFromTarget', ({ message }) => {
    const reply = JSON.parse(message) as { id?: number; result?: unknown; error?: { message: string } };
    const waiting = reply.id === undefined ? undefined : answers.get(reply.id);
    if (!waiting) return;
    answers.delete(reply.id!);
    if (reply.error) waiting.reject(new Error(`the worker answered: ${reply.error.message}`));
    else waiting.resolve(reply.result);
  });
  // The worker already runs: auto-attach reports it (and the audio worklet) at once.
  await page.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: false,
    flatten: false,
  });
  const deadline = Date.now() + 5_000;
  let worker: Attached | undefined;
  while (!(worker = attached.find((a) => a.targetInfo.type === 'worker' && script.test(a.targetInfo.url)))) {
    if (Date.now() > deadline)
      throw new Error(
        `no worker whose script matches ${script} (attached: ${attached.map((a) => a.targetInfo.url).join(', ')})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { sessionId } = worker;
  let nextId = 1;
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      answers.set(id, { resolve, reject });
      page
        .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) })
        .catch(reject);
    });
  return {
    async start() {
      await send('Profiler.enable');
      await send('Profiler.setSamplingInterval', { interval: 250 });
      await send('Profiler.start');
    },
    async stop() {
      const { profile } = (await send('Profiler.stop')) as { profile: CpuProfile };
      return profile;
    },
  };
}
