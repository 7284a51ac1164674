import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { deliveryTargetSchema, sameTarget, type DeliveryTarget } from '../../../shared/delivery-target';
import {
  noteDraftSchema,
  visitPatientSchema,
  type NoteDraft,
  type NoteDraftReading,
  type VisitPatient,
} from '../../../shared/contract/notes';
import type { Logger } from '../ports';
import { UserFacingError } from '../user-facing-error';

/**
 * The clinician's note edits on this computer (issue 29): one file per visit in `<data>/notes/`,
 * sealed (AES-256-GCM under a key derived from the spool key, as the spool and the demo's files
 * are), written whole and atomically with fsync, so a crash or `kill -9` leaves the old edits or
 * the new ones, never a torn file and never a word in the clear. Each file names the provider who
 * made the edits (service, partner, provider): another clinician signed in on the same laptop
 * reads none of them. A file that cannot be opened (damaged, or sealed with a key that is gone) is
 * set aside with a notice, never a crash; the service's note is shown as it is.
 *
 * The same file keeps the patient details the visit was recorded with (issue 31: the note's
 * "Female · 68 years · born …" line, after a reload or a restart), sealed and owned the same way,
 * and gone with the edits: when the visit is finished, discarded or swept.
 */
export interface NoteDraftStore {
  read(sessionId: string, owner: DeliveryTarget): Promise<NoteDraftReading>;
  /** Keeps the edits (and the patient details beside them); no edit and no patient: no file. */
  write(draft: NoteDraft, owner: DeliveryTarget): Promise<void>;
  /**
   * The visit's patient details, for its owner; undefined when none are kept or the file cannot be
   * opened (reading the edits sets such a file aside and says so: the edits are what matters).
   */
  readPatient(sessionId: string, owner: DeliveryTarget): Promise<VisitPatient | undefined>;
  /** Keeps the patient details the visit was recorded with, beside any edits; none given: nothing. */
  keepPatient(sessionId: string, patient: VisitPatient, owner: DeliveryTarget): Promise<void>;
  /** The visit is finished (in the EHR) or discarded: nothing of its note stays on disk. */
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
  /** Absent when only the patient details are kept (files of issue 29 always have it). */
  draft: noteDraftSchema.optional(),
  patient: visitPatientSchema.optional(),
});
type Stored = z.infer<typeof storedSchema>;

/** The clinician changed something: a section, a field, or a value of the check marked Checked. */
const hasEdits = (draft: NoteDraft | undefined): draft is NoteDraft =>
  draft !== undefined &&
  (Object.keys(draft.sections).length > 0 ||
    Object.keys(draft.fields).length > 0 ||
    Object.values(draft.checked ?? {}).some((keys) => keys.length > 0));
const hasPatient = (patient: VisitPatient | undefined): patient is VisitPatient =>
  patient?.dateOfBirth !== undefined || patient?.sex !== undefined;

export const DRAFT_UNREADABLE_NOTICE =
  'Your earlier edits of this note could not be read on this computer (the file was damaged, or the key that protected it is gone). The service’s note is shown; edit it again where needed.';
export const ANOTHER_OWNERS_NOTE =
  'These note edits on this computer are another clinician’s (or another service’s): nothing was changed. Sign in as the clinician who recorded the visit to edit it.';
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

  /** The file's contents: none, opened, or a file that cannot be opened with this key. */
  async function load(
    sessionId: string,
  ): Promise<{ kind: 'none' } | { kind: 'stored'; stored: Stored } | { kind: 'unreadable' }> {
    const file = fileOf(sessionId);
    let sealed: Buffer;
    try {
      sealed = readFileSync(file);
    } catch {
      return { kind: 'none' };
    }
    const sealKey = await key();
    try {
      return {
        kind: 'stored',
        stored: storedSchema.parse(JSON.parse(open(sessionId, sealed, sealKey).toString('utf8'))),
      };
    } catch {
      return { kind: 'unreadable' };
    }
  }

  /**
   * One change at a time per visit: the edits and the patient details share a file, and each
   * write keeps what the other put there.
   */
  const queues = new Map<string, Promise<unknown>>();
  function serially<T>(sessionId: string, change: () => Promise<T>): Promise<T> {
    const run = (queues.get(sessionId) ?? Promise.resolve()).then(change, change);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    queues.set(sessionId, settled);
    void settled.then(() => {
      if (queues.get(sessionId) === settled) queues.delete(sessionId);
    });
    return run;
  }

  type Kept = Pick<Stored, 'draft' | 'patient'>;
  /** Replaces what is kept of one visit's note by `next(kept)`, for `owner`; nothing left: no file. */
  function update(sessionId: string, owner: DeliveryTarget, next: (kept: Kept) => Kept) {
    const file = fileOf(sessionId);
    return serially(sessionId, async () => {
      const loaded = await load(sessionId);
      // Another owner's file is theirs: never overwritten nor emptied by anyone else (issue 39).
      if (loaded.kind === 'stored' && !sameTarget(loaded.stored.owner, owner))
        throw new UserFacingError('invalid_request', ANOTHER_OWNERS_NOTE);
      // One that cannot be opened keeps nothing (read() has set it aside and said so).
      const kept = loaded.kind === 'stored' ? loaded.stored : {};
      const stored = next(kept);
      if (!hasEdits(stored.draft) && !hasPatient(stored.patient)) {
        rmSync(file, { force: true });
        return;
      }
      const sealKey = await key();
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const plain = Buffer.from(
        JSON.stringify({
          owner,
          updatedAt: options.now(),
          ...(hasEdits(stored.draft) ? { draft: stored.draft } : {}),
          ...(hasPatient(stored.patient) ? { patient: stored.patient } : {}),
        }),
      );
      await writeFileAtomic(file, seal(sessionId, plain, sealKey), { mode: 0o600, fsync: true });
    });
  }

  return {
    async read(sessionId, owner) {
      let loaded: Awaited<ReturnType<typeof load>>;
      try {
        loaded = await load(sessionId);
      } catch (error) {
        if (error instanceof RangeError) throw error; // not a session id
        log.warn('notes: the key of the note edits is not available');
        return { notice: DRAFT_KEY_UNAVAILABLE_NOTICE };
      }
      if (loaded.kind === 'none') return {};
      if (loaded.kind === 'unreadable') {
        // Which visit is known to the log by nothing: a count says enough for IT.
        log.warn('notes: a note draft could not be opened; set aside');
        setAside(fileOf(sessionId));
        return { notice: DRAFT_UNREADABLE_NOTICE };
      }
      // Another clinician's edits: as if there were none.
      if (!sameTarget(loaded.stored.owner, owner) || !hasEdits(loaded.stored.draft)) return {};
      return { draft: loaded.stored.draft };
    },

    async write(draft, owner) {
      await update(draft.sessionId, owner, (kept) => ({ ...kept, draft }));
    },

    async readPatient(sessionId, owner) {
      fileOf(sessionId); // not a session id: thrown, not read as "none kept"
      // Kept at Start without waiting: a read asked for meanwhile has what was being written.
      await queues.get(sessionId);
      // A keychain that does not answer, or a file that cannot be opened: the line is left out
      // (reading the edits says what happened to the file).
      const loaded = await load(sessionId).catch(() => undefined);
      if (loaded?.kind !== 'stored' || !sameTarget(loaded.stored.owner, owner)) return undefined;
      return hasPatient(loaded.stored.patient) ? loaded.stored.patient : undefined;
    },

    async keepPatient(sessionId, patient, owner) {
      const given: VisitPatient = {
        ...(patient.dateOfBirth !== undefined ? { dateOfBirth: patient.dateOfBirth } : {}),
        ...(patient.sex !== undefined ? { sex: patient.sex } : {}),
      };
      if (!hasPatient(given)) return;
      await update(sessionId, owner, (kept) => ({ ...kept, patient: given }));
    },

    remove(sessionId) {
      const file = fileOf(sessionId);
      rmSync(file, { force: true });
      // A write already on its way (the patient details kept at Start, say) would bring the file
      // back: it goes again once that write is done. Writes asked for later run after this.
      const pending = queues.get(sessionId);
      if (pending) void pending.then(() => rmSync(file, { force: true }));
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
