import { isTerminalStatus } from '../../../shared/service';
import type { Clock } from '../ports';

export interface PollProgress {
  status: string;
  /** ms since polling started. */
  elapsedMs: number;
  /** How many status calls so far. */
  polls: number;
}

export interface PollOptions {
  /** One status call; a rejection is retried at the next step (the REST client already retried). */
  status(): Promise<string>;
  clock: Clock;
  onProgress?(progress: PollProgress): void;
  /** First wait, growth factor and cap (docs: about 1 s growing to 5 s). */
  firstDelayMs?: number;
  growth?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
}

export interface Poll {
  /** Resolves with the terminal status (completed, failed, skipped, cancelled). */
  readonly done: Promise<string>;
  /** A notification arrived: check now instead of waiting for the next step. */
  wake(): void;
}

/**
 * Polls a session's status until it is terminal. Unknown status values are not terminal (the
 * service may add states). Polling stops on a terminal status or when the signal aborts (the
 * results view closed).
 */
export function pollUntilTerminal(options: PollOptions): Poll {
  const { clock } = options;
  const first = options.firstDelayMs ?? 1_000;
  const growth = options.growth ?? 1.5;
  const cap = options.maxDelayMs ?? 5_000;
  const started = clock.now();
  let polls = 0;
  let delay = first;
  let cancelTimer: () => void = () => undefined;
  let checking = false;
  let again = false;
  let settle: { resolve(status: string): void; reject(error: unknown): void };
  const done = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  let finished = false;

  const schedule = (ms: number) => {
    cancelTimer();
    cancelTimer = clock.after(ms, () => void check());
  };

  async function check(): Promise<void> {
    if (finished) return;
    if (checking) {
      again = true;
      return;
    }
    checking = true;
    try {
      const status = await options.status();
      polls += 1;
      options.onProgress?.({ status, elapsedMs: clock.now() - started, polls });
      if (isTerminalStatus(status)) {
        finished = true;
        cancelTimer();
        settle.resolve(status);
        return;
      }
    } catch {
      // A failed poll is not a failed session: try again at the next step.
    } finally {
      checking = false;
    }
    if (again) {
      again = false;
      return void check();
    }
    schedule(delay);
    delay = Math.min(cap, delay * growth);
  }

  options.signal?.addEventListener('abort', () => {
    if (finished) return;
    finished = true;
    cancelTimer();
    settle.reject(new Error('polling stopped'));
  });

  schedule(0);
  return {
    done,
    wake: () => {
      if (!finished) void check();
    },
  };
}
