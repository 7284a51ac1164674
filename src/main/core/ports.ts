/**
 * The small interfaces the Electron-free core is built from. The Electron shell plugs in
 * electron-store and app.getPath; browser mode and tests plug in plain files and real clocks.
 */

/** One JSON document that survives restarts (settings). */
export interface JsonStorage {
  /** The stored value, or undefined when nothing usable is stored yet. */
  read(): Promise<unknown>;
  write(value: unknown): Promise<void>;
  /** Where the document lives, for the IT admin (a path or a store name). */
  readonly location: string;
}

/**
 * Structured log lines. Callers pass no token, secret or patient data (DESIGN.md "Clear failure");
 * the shells put logging/scrubbed-logger.ts in front of every transport all the same. A message
 * is the caller's own words; whatever varies goes into fields, which the scrubber judges by name.
 */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface Clock {
  now(): number;
  /** Repeats fn every ms; returns a function that stops it. */
  every(ms: number, fn: () => void): () => void;
  /** Runs fn once after ms; returns a function that cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    // A heartbeat must never be the only thing keeping the process alive.
    timer.unref?.();
    return () => clearInterval(timer);
  },
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
