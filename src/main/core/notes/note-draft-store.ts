import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { deliveryTargetSchema, sameTarget, type DeliveryTarget } from '../../../shared/delivery-target';
import { noteDraftSchema, type NoteDraft, type NoteDraftReading } from '../../../shared/contract/notes';
import type { Logger } from '../ports';

/**
 * The clinician's note edits on this computer (issue 29): one file per visit in `<data>/notes/`,
 * sealed (AES-256-GCM under a key derived from the spool key, as the spool and the demo's files
 * are), written whole and atomically with fsync, so a crash or `kill -9` leaves the old edits or
 * the new ones, never a torn file and never a word in the clear. Each file names the provider who
 * made the edits (service, partner, provider): another clinician signed in on the same laptop
 * reads none of them. A file that cannot be opened (damaged, or sealed with a key that is gone) is
 * set aside with a notice, never a crash; the service's note is shown as it is.
 */
export interface NoteDraftStore {
  read(sessionId: string, owner: DeliveryTarget): Promise<NoteDraftReading>;
  /** Keeps the edits; a draft without any edit removes the file. */
  write(draft: NoteDraft, owner: DeliveryTarget): Promise<void>;
  /** The visit is finished (in the EHR): nothing of its note stays on disk. */
  remove(sessionId: string): void;
  /** Unfinished edits older than `maxAgeMs` (the audio retention), and set-aside files, go. */
  sweep(maxAgeMs: number): string[];
}

export interface NoteDraftStoreOptions {
  dir: string;
  /** The spool key (spool-key.ts); the drafts' key is derived from it. */
  spoolKey(): Promise<Uint8Array>;
  log: Logger;
  now(): number;
}

const FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SUFFIX = '.note';
const SET_ASIDE = '.unreadable-';
/** A service session id as a file name: nothing that can leave the folder. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,200}$/;

const storedSchema = z.object({
  owner: deliveryTargetSchema,
  updatedAt: z.number(),
  draft: noteDraftSchema,
});

export const DRAFT_UNREADABLE_NOTICE =
  'Your earlier edits of this note could not be read on this computer (the file was damaged, or the key that protected it is gone). The service’s note is shown; edit it again where needed.';
export const DRAFT_KEY_UNAVAILABLE_NOTICE =
  'Your edits of this note cannot be opened right now: this computer’s keychain did not answer. The service’s note is shown; try again in a moment.';

export function createNoteDraftStore(options: NoteDraftStoreOptions): NoteDraftStore {
  const { dir, log } = options;
  let derived: Promise<Buffer> | undefined;
  const key = () =>
    (derived ??= options
      .spoolKey()
      .then((spoolKey) =>
        Buffer.from(hkdfSync('sha256', spoolKey, Buffer.alloc(0), 'ambient-scribe note drafts', 32)),
      )
      .catch((error: unknown) => {
        derived = undefined; // a keychain that did not answer is asked again next time
        throw error;
      }));

  const fileOf = (sessionId: string) => {
    if (!SESSION_ID.test(sessionId)) throw new RangeError('not a session id');
    return join(dir, `${sessionId}${SUFFIX}`);
  };

  function seal(sessionId: string, plain: Buffer, sealKey: Buffer): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
    // The file's visit is part of what is authenticated: a file copied under another name opens not.
    cipher.setAAD(Buffer.from(`note:${sessionId}`));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([Buffer.from([FORMAT]), iv, cipher.getAuthTag(), body]);
  }

  function open(sessionId: string, sealed: Buffer, sealKey: Buffer): Buffer {
    if (sealed[0] !== FORMAT || sealed.length < 1 + IV_BYTES + TAG_BYTES) throw new Error('not a note draft');
    const decipher = createDecipheriv('aes-256-gcm', sealKey, sealed.subarray(1, 1 + IV_BYTES));
    decipher.setAAD(Buffer.from(`note:${sessionId}`));
    decipher.setAuthTag(sealed.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]);
  }

  function setAside(file: string): void {
    try {
      renameSync(file, `${file}${SET_ASIDE}${options.now()}`);
    } catch {
      rmSync(file, { force: true });
    }
  }

  return {
    async read(sessionId, owner) {
      const file = fileOf(sessionId);
      let sealed: Buffer;
      try {
        sealed = readFileSync(file);
      } catch {
        return {};
      }
      let sealKey: Buffer;
      try {
        sealKey = await key();
      } catch {
        log.warn('notes: the key of the note edits is not available');
        return { notice: DRAFT_KEY_UNAVAILABLE_NOTICE };
      }
      let stored: z.infer<typeof storedSchema>;
      try {
        stored = storedSchema.parse(JSON.parse(open(sessionId, sealed, sealKey).toString('utf8')));
      } catch {
        // Which visit is known to the log by nothing: a count says enough for IT.
        log.warn('notes: a note draft could not be opened; set aside');
        setAside(file);
        return { notice: DRAFT_UNREADABLE_NOTICE };
      }
      // Another clinician's edits: as if there were none.
      if (!sameTarget(stored.owner, owner)) return {};
      return { draft: stored.draft };
    },

    async write(draft, owner) {
      const file = fileOf(draft.sessionId);
      if (Object.keys(draft.sections).length === 0 && Object.keys(draft.fields).length === 0) {
        rmSync(file, { force: true });
        return;
      }
      const sealKey = await key();
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const plain = Buffer.from(JSON.stringify({ owner, updatedAt: options.now(), draft }));
      await writeFileAtomic(file, seal(draft.sessionId, plain, sealKey), { mode: 0o600, fsync: true });
    },

    remove(sessionId) {
      rmSync(fileOf(sessionId), { force: true });
    },

    sweep(maxAgeMs) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return [];
      }
      const removed: string[] = [];
      for (const name of names) {
        const file = join(dir, name);
        try {
          // The file's own time: a visit's edits (or a set-aside file) last as long as its
          // unfinished audio may.
          if (options.now() - statSync(file).mtimeMs <= maxAgeMs) continue;
          rmSync(file, { force: true });
          removed.push(name.split('.', 1)[0]!);
        } catch {
          // The next sweep.
        }
      }
      return removed;
    },
  };
}
