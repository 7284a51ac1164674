import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { promisify } from 'node:util';
import { z } from 'zod';
import type { DeliveryTarget } from '../../../shared/delivery-target';
import type { Logger } from '../ports';
import type { SecretBox } from '../secrets/secret-box';
import type { PinGeneration } from './pin-generation';

/**
 * The PIN that unlocks a window for a Bearer or Single Auth Token partner's clinician (issue 29).
 * Their partner token is the organisation's, so signing in proves nothing about who sits at the
 * keyboard; the PIN they chose at their first sign-in on this computer does. Kept in the secret
 * box (the OS keychain in the desktop app), never in the clear: scrypt, a memory-hard function,
 * with a random salt per PIN, so a copied keychain entry costs an attacker ~32 MiB and ~0.1 s per
 * guess. Wrong tries slow down before they block (issue 37: five in a row, mid-clinic, blocked
 * recording until IT came): after the third a wait of 30 s, doubling with each one after, and only
 * the tenth blocks it until the partner token is entered again (by IT), the only credential left
 * that says the organisation vouches for the person. Ten guesses with waits of 30 s to 32 min in
 * between (about an hour) leave a 4-digit PIN a 1 in 1,000 chance.
 *
 * One PIN per clinician per service and partner: another provider signing in on the same laptop
 * sets their own, and a PIN for one service means nothing at another.
 */

const SECRET_NAME = 'unlock-pins';
/** Wrong PINs in a row before the PIN is blocked (phones allow about as many, with waits between). */
export const MAX_PIN_TRIES = 10;
/** Wrong PINs in a row answered at once; each one after them starts a wait. */
export const FREE_PIN_TRIES = 3;
/** The wait after the first try past the free ones; it doubles with each one after. */
export const FIRST_PIN_WAIT_MS = 30_000;

/** How long the next try waits after `wrongTries` wrong PINs in a row. */
export function pinWaitMs(wrongTries: number): number {
  return wrongTries < FREE_PIN_TRIES ? 0 : FIRST_PIN_WAIT_MS * 2 ** (wrongTries - FREE_PIN_TRIES);
}
/** Digits only, as the exam-room keyboards' number pads and the products clinicians know. */
export const PIN_RULE = { pattern: /^\d{4,12}$/, sentence: 'Use 4 to 12 digits.' } as const;
/**
 * N=2^15, r=8: 32 MiB and about 0.1 s per try here. That slows a copied store, it does not stop
 * it: every 4-digit PIN takes about 17 minutes on one core. The try limit is what protects the
 * window; the secret box (the OS keychain) is what protects the hash. docs/deployment.md says so.
 */
const SCRYPT: ScryptOptions & { N: number; r: number; p: number } = {
  N: 2 ** 15,
  r: 8,
  p: 1,
  maxmem: 64 * 1024 * 1024,
};
const KEY_BYTES = 32;

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: ScryptOptions,
) => Promise<Buffer>;

const pinRecordSchema = z.object({
  salt: z.string(),
  hash: z.string(),
  N: z.number().int().positive(),
  r: z.number().int().positive(),
  p: z.number().int().positive(),
  wrongTries: z.number().int().nonnegative(),
  /** When the last wrong PIN was tried (the wait counts from it). */
  lastWrongAt: z.number().optional(),
  blocked: z.boolean(),
});
type PinRecord = z.infer<typeof pinRecordSchema>;
const pinRecordsSchema = z.record(z.string(), pinRecordSchema);
/**
 * The store: its records and its generation (pin-generation.ts). A store written before the
 * generation is the records alone.
 */
const pinFileSchema = z.union([
  z.object({ generation: z.number().int().positive(), records: pinRecordsSchema }),
  pinRecordsSchema.transform((records) => ({ generation: undefined, records })),
]);

export type PinState =
  | { kind: 'none' }
  /** `waitUntil`: no try is taken before then (epoch ms), after too many wrong ones. */
  | { kind: 'set'; triesLeft: number; waitUntil?: number }
  /**
   * Too many wrong tries; no PIN kept for a clinician who recorded here (`reason: 'missing'`,
   * missing-pin.ts); or a store older than the last one written, or missing since (`'changed'`,
   * pin-generation.ts): only entering the partner token again (IT) clears it.
   */
  | { kind: 'blocked'; reason?: 'missing' | 'changed' };

/**
 * A wrong PIN (`waitUntil`: the next try waits until then), or one given during a wait (`waiting`:
 * not checked, and no try spent).
 */
export type PinCheck = { ok: true } | { ok: false; triesLeft: number; waitUntil?: number; waiting?: true };

export interface UnlockPins {
  state(clinician: DeliveryTarget): Promise<PinState>;
  /** Sets (or replaces) the clinician's PIN; throws PinRuleError when it breaks the rule. */
  set(clinician: DeliveryTarget, pin: string): Promise<void>;
  /**
   * A right PIN resets the count; a wrong one spends a try (0 left: blocked) and may start a wait;
   * during a wait nothing is checked.
   */
  check(clinician: DeliveryTarget, pin: string): Promise<PinCheck>;
  /** The partner token was entered again for this service and partner: blocked PINs go. */
  clearBlocked(service: string, partnerId: string): Promise<number>;
  /** The providers of this service and partner with a PIN kept (blocked or not); none from a store that cannot be read. */
  keptFor(service: string, partnerId: string): Promise<string[]>;
}

export class PinRuleError extends Error {
  constructor(readonly rule: string) {
    super(rule);
    this.name = 'PinRuleError';
  }
}

const keyOf = (clinician: DeliveryTarget) =>
  JSON.stringify([clinician.service, clinician.partnerId, clinician.providerId]);

async function derive(pin: string, salt: Buffer, record: Pick<PinRecord, 'N' | 'r' | 'p'>): Promise<Buffer> {
  return scrypt(pin, salt, KEY_BYTES, { N: record.N, r: record.r, p: record.p, maxmem: SCRYPT.maxmem });
}

export function createUnlockPins(deps: {
  secrets: SecretBox;
  /** The store's last generation, kept outside it (pin-generation.ts). */
  generation: PinGeneration;
  log: Logger;
  now?: () => number;
}): UnlockPins {
  const now = deps.now ?? Date.now;
  // One change at a time: two tries racing must both count.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  interface Store {
    records: Record<string, PinRecord>;
    /** The highest generation known, the store's or the one kept outside it. */
    generation: number;
    /** Unreadable: every PIN counts as blocked (fails closed) until the partner token clears it. */
    unreadable: boolean;
    /** Older than the last store written, or gone since: blocked the same way, and said so. */
    changed: boolean;
  }
  const read = async (): Promise<Store> => {
    const text = await deps.secrets.get(SECRET_NAME);
    // Damaged, or sealed with a key that is gone: `null`, told apart from never written.
    const last = await deps.generation.read().catch(() => null);
    let stored: { generation: number | undefined; records: Record<string, PinRecord> } = {
      generation: undefined,
      records: {},
    };
    if (text) {
      try {
        stored = pinFileSchema.parse(JSON.parse(text));
      } catch {
        deps.log.warn(
          'privacy: the stored PINs could not be read; nobody unlocks with one until IT acts',
          {},
        );
        return { records: {}, generation: last ?? 0, unreadable: true, changed: false };
      }
    }
    const changed =
      last === null
        ? // A generation that cannot be read: PINs kept cannot be told from an older copy. None kept
          // (a secret box that keeps nothing across runs took the key and the store with it): nothing
          // to protect, and the next write starts the count again.
          Object.keys(stored.records).length > 0
        : // An older copy of the store (restored from a backup), none since one was written here, or
          // a store with a generation whose record of it outside was deleted.
          last !== undefined
          ? (stored.generation ?? 0) < last
          : stored.generation !== undefined;
    if (changed)
      deps.log.warn(
        'privacy: the PIN store is not the last one written; nobody unlocks with a PIN until IT acts',
        {},
      );
    return {
      records: changed ? {} : stored.records,
      generation: Math.max(stored.generation ?? 0, last ?? 0),
      unreadable: false,
      changed,
    };
  };
  /**
   * Wrong tries of this run, kept beside the stored count: a store that cannot be written (a
   * read-only file) must not hand out unlimited tries.
   */
  const wrongThisRun = new Map<string, { tries: number; at: number }>();
  /** Wrong tries in a row and when the last was, the stored ones or this run's, whichever is more. */
  const wrongOf = (key: string, record: PinRecord | undefined) => {
    const run = wrongThisRun.get(key);
    const stored = { tries: record?.wrongTries ?? 0, at: record?.lastWrongAt ?? 0 };
    return run && run.tries >= stored.tries ? run : stored;
  };
  /** The end of the wait after these wrong tries; undefined when there is none now. */
  const waitUntilOf = (wrong: { tries: number; at: number }) => {
    const until = wrong.at + pinWaitMs(wrong.tries);
    return pinWaitMs(wrong.tries) > 0 && until > now() ? until : undefined;
  };
  /** The store first, then its generation outside it: a crash between leaves the store newer, never older. */
  const write = async (store: Pick<Store, 'generation'>, records: Record<string, PinRecord>) => {
    const generation = store.generation + 1;
    await deps.secrets.set(SECRET_NAME, JSON.stringify({ generation, records }));
    await deps.generation.write(generation);
  };

  /**
   * A wrong try the store could not keep (a read-only or full file): a restart would give it back.
   * So the number kept outside moves on alone, and from the next read the store is older than the
   * last one written: every PIN in it is blocked until IT enters the partner token (fails closed).
   * Where that number cannot be written either, this run blocks the PIN itself.
   */
  const uncounted = async (store: Store, key: string, at: number, error: unknown) => {
    deps.log.warn('privacy: a wrong PIN could not be counted in the store; the store now counts as changed', {
      error: (error as Error).name,
    });
    await deps.generation.write(store.generation + 1).catch(() => {
      deps.log.warn('privacy: nor could the PIN store be marked changed; blocked for this run', {});
      wrongThisRun.set(key, { tries: MAX_PIN_TRIES, at });
    });
  };

  return {
    async state(clinician) {
      const { records, unreadable, changed } = await read();
      if (changed) return { kind: 'blocked', reason: 'changed' };
      // Unreadable (garbled, or sealed with a key that is gone): not the store last written either.
      if (unreadable) return { kind: 'blocked', reason: 'changed' };
      const record = records[keyOf(clinician)];
      if (!record) return { kind: 'none' };
      const wrong = wrongOf(keyOf(clinician), record);
      if (record.blocked || wrong.tries >= MAX_PIN_TRIES) return { kind: 'blocked' };
      const waitUntil = waitUntilOf(wrong);
      return { kind: 'set', triesLeft: MAX_PIN_TRIES - wrong.tries, ...(waitUntil ? { waitUntil } : {}) };
    },
    set(clinician, pin) {
      if (!PIN_RULE.pattern.test(pin)) return Promise.reject(new PinRuleError(PIN_RULE.sentence));
      return serially(async () => {
        const salt = randomBytes(16);
        const hash = await derive(pin, salt, SCRYPT);
        const store = await read();
        const { records } = store;
        if (store.unreadable) throw new PinRuleError('The stored PINs cannot be read: ask your IT admin.');
        if (store.changed)
          throw new PinRuleError(
            'The PINs on this computer were changed outside the app: ask your IT admin to enter the partner token again.',
          );
        wrongThisRun.delete(keyOf(clinician));
        records[keyOf(clinician)] = {
          salt: salt.toString('base64'),
          hash: hash.toString('base64'),
          N: SCRYPT.N,
          r: SCRYPT.r,
          p: SCRYPT.p,
          wrongTries: 0,
          blocked: false,
        };
        await write(store, records);
        deps.log.info('privacy: a clinician chose a PIN for this computer', {});
      });
    },
    check(clinician, pin) {
      return serially(async (): Promise<PinCheck> => {
        const key = keyOf(clinician);
        const store = await read();
        const { records, unreadable } = store;
        const record = records[key];
        const wrong = wrongOf(key, record);
        const wrongBefore = wrong.tries;
        if (unreadable || store.changed || !record || record.blocked || wrongBefore >= MAX_PIN_TRIES)
          return { ok: false, triesLeft: 0 };
        // Within a wait nothing is tried: not the right PIN either, so guessing gains nothing.
        const waiting = waitUntilOf(wrong);
        if (waiting !== undefined)
          return { ok: false, triesLeft: MAX_PIN_TRIES - wrongBefore, waitUntil: waiting, waiting: true };
        const expected = Buffer.from(record.hash, 'base64');
        // Any text is hashed: a wrong shape costs a try like a wrong PIN, and takes as long.
        const actual = await derive(pin, Buffer.from(record.salt, 'base64'), record);
        if (actual.length === expected.length && timingSafeEqual(actual, expected)) {
          wrongThisRun.delete(key);
          if (record.wrongTries > 0) {
            const { lastWrongAt: _forgotten, ...rest } = record;
            await write(store, { ...records, [key]: { ...rest, wrongTries: 0 } });
          }
          return { ok: true };
        }
        // Counted in memory first, so a write that fails still spends the try.
        const wrongTries = wrongBefore + 1;
        const at = now();
        wrongThisRun.set(key, { tries: wrongTries, at });
        const blocked = wrongTries >= MAX_PIN_TRIES;
        try {
          await write(store, { ...records, [key]: { ...record, wrongTries, lastWrongAt: at, blocked } });
        } catch (error) {
          await uncounted(store, key, at, error);
          return { ok: false, triesLeft: 0 };
        }
        deps.log.warn('privacy: a wrong PIN', { triesLeft: MAX_PIN_TRIES - wrongTries });
        const waitUntil = blocked ? undefined : waitUntilOf({ tries: wrongTries, at });
        return { ok: false, triesLeft: MAX_PIN_TRIES - wrongTries, ...(waitUntil ? { waitUntil } : {}) };
      });
    },
    keptFor(service, partnerId) {
      return serially(async () => {
        const { records, unreadable, changed } = await read();
        if (unreadable || changed) return [];
        return Object.keys(records)
          .map((key) => JSON.parse(key) as [string, string, string])
          .filter(
            ([recordService, recordPartner]) => recordService === service && recordPartner === partnerId,
          )
          .map(([, , providerId]) => providerId);
      });
    },
    clearBlocked(service, partnerId) {
      return serially(async () => {
        const store = await read();
        const { records, unreadable, changed } = store;
        let cleared = 0;
        for (const [key, record] of Object.entries(records)) {
          const [recordService, recordPartner] = JSON.parse(key) as [string, string, string];
          if (recordService !== service || recordPartner !== partnerId) continue;
          if (record.blocked || (wrongThisRun.get(key)?.tries ?? 0) >= MAX_PIN_TRIES) {
            delete records[key];
            wrongThisRun.delete(key);
            cleared += 1;
          }
        }
        // An unreadable or changed store is replaced by an empty one (with a generation past both):
        // every clinician chooses a PIN again.
        if (cleared > 0 || unreadable || changed) {
          await write(store, records);
          deps.log.info('privacy: blocked PINs cleared by the partner token', {
            clinicians: cleared,
            unreadable,
            changed,
          });
        }
        return cleared;
      });
    },
  };
}
