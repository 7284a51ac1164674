import type { CaptureLevel } from '../audio/capture-types';

/**
 * The microphone's level, ten times a second, outside the store's state: a level in the state
 * would wake every subscriber of the store ten times a second to find nothing else changed. The
 * one reader, the level meter, draws it straight into its elements (LevelMeter.tsx). `current` is
 * the latest level, or null when no microphone is open.
 */
export interface LevelFeed {
  readonly current: CaptureLevel | null;
  publish(level: CaptureLevel | null): void;
  /** Called with each new level; returns a function that stops it. */
  subscribe(listener: (level: CaptureLevel | null) => void): () => void;
}

export function createLevelFeed(): LevelFeed {
  let current: CaptureLevel | null = null;
  const listeners = new Set<(level: CaptureLevel | null) => void>();
  return {
    get current() {
      return current;
    },
    publish(level) {
      current = level;
      for (const listener of listeners) listener(level);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
