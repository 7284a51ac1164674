/**
 * When the built-in sandbox finished a session: it runs inside the app process (the notification
 * receiver is wired only to it), and keeps each session's record, timeline included, as
 * `<data>/sandbox/sessions/<id>.json`, rewritten at every status change. Its clock is Date.now()
 * in the app process.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CannotMeasure } from '../browser-app/run';

interface SessionFile {
  id: string;
  kind: string;
  encounterId: string;
  status: string;
  timeline: { at: number; type: string }[];
}

/** Epoch ms of the encounter's ambient session reaching `status` (waits for the record to be saved). */
export async function statusReachedAt(dataDir: string, encounterId: string, status: string): Promise<number> {
  const dir = join(dataDir, 'sandbox', 'sessions');
  const deadline = Date.now() + 10_000;
  for (;;) {
    for (const name of (await readdir(dir)).filter((n) => n.endsWith('.json'))) {
      let record: SessionFile;
      try {
        record = JSON.parse(await readFile(join(dir, name), 'utf8')) as SessionFile;
      } catch {
        continue; // being replaced
      }
      if (record.encounterId !== encounterId || record.kind !== 'ambient') continue;
      const event = record.timeline.find((e) => e.type === `status:${status}`);
      if (event) return event.at;
    }
    if (Date.now() > deadline)
      throw new CannotMeasure(`the built-in sandbox has no "${status}" for encounter ${encounterId}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
