import { readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readSpoolManifest, type SpoolManifest } from './spool-manifest';

/** The manifests of every spool under `root` (one directory per visit), unreadable ones skipped. */
export function listAudioSpools(root: string): { dir: string; manifest: SpoolManifest }[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const dir = join(root, name);
    try {
      const manifest = readSpoolManifest(dir);
      return [{ dir, manifest }];
    } catch {
      return [];
    }
  });
}

/**
 * Retention: a delivered or discarded visit's audio goes after `graceMs`, unless `keepDelivered`
 * keeps a delivered one (its recording kept to play back until the note is Finished, issue 38);
 * any spool goes after `maxAgeMs` (default 7 days) whatever its state. Returns the session ids
 * removed.
 */
export function sweepAudioSpools(
  root: string,
  now: number,
  options: {
    graceMs: number;
    maxAgeMs: number;
    /** Spools in use now (a visit recording or on its way to the service): never removed. */
    inUse?: (sessionId: string) => boolean;
    /** A delivered spool whose audio stays past the grace, within maxAgeMs (replay, issue 38). */
    keepDelivered?: (manifest: SpoolManifest) => boolean;
  },
): string[] {
  const removed: string[] = [];
  const spools = listAudioSpools(root);
  for (const { dir, manifest } of spools) {
    if (options.inUse?.(manifest.sessionId) || options.inUse?.(manifest.visitSessionId ?? '')) continue;
    const finished = manifest.state === 'delivered' || manifest.state === 'discarded';
    const expired = now - manifest.createdAt >= options.maxAgeMs;
    const kept = manifest.state === 'delivered' && options.keepDelivered?.(manifest) === true;
    if (!(finished && !kept && now - manifest.updatedAt >= options.graceMs) && !expired) continue;
    try {
      rmSync(dir, { recursive: true, force: true });
      removed.push(manifest.sessionId);
    } catch {
      // One spool that cannot go now (a file still open on Windows) stops nothing else; next sweep.
    }
  }
  // Orphans: a folder no manifest describes (History could not name it again either) goes once
  // nothing in it has changed for the age limit, like any audio.
  const described = new Set(spools.map(({ dir }) => dir));
  for (const dir of subdirectories(root).filter((dir) => !described.has(dir))) {
    try {
      const changed = Math.max(
        statSync(dir).mtimeMs,
        ...readdirSync(dir).map((f) => statSync(join(dir, f)).mtimeMs),
      );
      if (now - changed < options.maxAgeMs) continue;
      rmSync(dir, { recursive: true, force: true });
      removed.push(basename(dir));
    } catch {
      // Next sweep.
    }
  }
  return removed;
}

/** The folders directly under `root`. */
function subdirectories(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names.map((name) => join(root, name)).filter(isDirectory);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
