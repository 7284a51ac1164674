import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { promisify } from 'node:util';
import { z } from 'zod';
import type { DeliveryTarget } from '../../../shared/delivery-target';
import type { Logger } from '../ports';
import type { SecretBox } from '../secrets/secret-box';

/**
 * The PIN that unlocks a window for a Bearer or Single Auth Token partner's clinician (issue 29).
 * Their partner token is the organisation's, so signing in proves nothing about who sits at the
 * keyboard; the PIN they chose at their first sign-in on this computer does. Kept in the secret
 * box (the OS keychain in the desktop app), never in the clear: scrypt, a memory-hard function,
 * with a random salt per PIN, so a copied keychain entry costs an attacker ~32 MiB and ~0.1 s per
 * guess. A few wrong tries block it until the partner token is entered again (by IT), which is
 * the only credential left that says the organisation vouches for the person.
 *
 * One PIN per clinician per service and partner: another provider signing in on the same laptop
 * sets their own, and a PIN for one service means nothing at another.
 */

const SECRET_NAME = 'unlock-pins';
/** Wrong PINs in a row before the PIN is blocked (Epic Rover and phones allow about as many). */
export const MAX_PIN_TRIES = 5;
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
  blocked: z.boolean(),
});
type PinRecord = z.infer<typeof pinRecordSchema>;
const pinFileSchema = z.record(z.string(), pinRecordSchema);

export type PinState =
  | { kind: 'none' }
  | { kind: 'set'; triesLeft: number }
  /** Too many wrong tries: only entering the partner token again (IT) clears it. */
  | { kind: 'blocked' };

export type PinCheck = { ok: true } | { ok: false; triesLeft: number };

export interface UnlockPins {
  state(clinician: DeliveryTarget): Promise<PinState>;
  /** Sets (or replaces) the clinician's PIN; throws PinRuleError when it breaks the rule. */
  set(clinician: DeliveryTarget, pin: string): Promise<void>;
  /** A right PIN resets the count; a wrong one spends a try (0 left: blocked). */
  check(clinician: DeliveryTarget, pin: string): Promise<PinCheck>;
  /** The partner token was entered again for this service and partner: blocked PINs go. */
  clearBlocked(service: string, partnerId: string): Promise<number>;
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

export function createUnlockPins(deps: { secrets: SecretBox; log: Logger }): UnlockPins {
  // One change at a time: two tries racing must both count.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  /** Unreadable: every PIN counts as blocked (fails closed) until the partner token clears it. */
  const read = async (): Promise<{ records: Record<string, PinRecord>; unreadable: boolean }> => {
    const text = await deps.secrets.get(SECRET_NAME);
    if (!text) return { records: {}, unreadable: false };
    try {
      return { records: pinFileSchema.parse(JSON.parse(text)), unreadable: false };
    } catch {
      deps.log.warn('privacy: the stored PINs could not be read; nobody unlocks with one until IT acts', {});
      return { records: {}, unreadable: true };
    }
  };
  /**
   * Wrong tries of this run, kept beside the stored count: a store that cannot be written (a
   * read-only file) must not hand out unlimited tries.
   */
  const wrongThisRun = new Map<string, number>();
  const write = (records: Record<string, PinRecord>) =>
    deps.secrets.set(SECRET_NAME, JSON.stringify(records));

  return {
    async state(clinician) {
      const { records, unreadable } = await read();
      if (unreadable) return { kind: 'blocked' };
      const record = records[keyOf(clinician)];
      if (!record) return { kind: 'none' };
      const wrongTries = Math.max(record.wrongTries, wrongThisRun.get(keyOf(clinician)) ?? 0);
      return record.blocked || wrongTries >= MAX_PIN_TRIES
        ? { kind: 'blocked' }
        : { kind: 'set', triesLeft: MAX_PIN_TRIES - wrongTries };
    },
    set(clinician, pin) {
      if (!PIN_RULE.pattern.test(pin)) return Promise.reject(new PinRuleError(PIN_RULE.sentence));
      return serially(async () => {
        const salt = randomBytes(16);
        const hash = await derive(pin, salt, SCRYPT);
        const { records, unreadable } = await read();
        if (unreadable) throw new PinRuleError('The stored PINs cannot be read: ask your IT admin.');
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
        await write(records);
        deps.log.info('privacy: a clinician chose a PIN for this computer', {});
      });
    },
    check(clinician, pin) {
      return serially(async (): Promise<PinCheck> => {
        const key = keyOf(clinician);
        const { records, unreadable } = await read();
        const record = records[key];
        const wrongBefore = Math.max(record?.wrongTries ?? 0, wrongThisRun.get(key) ?? 0);
        if (unreadable || !record || record.blocked || wrongBefore >= MAX_PIN_TRIES)
          return { ok: false, triesLeft: 0 };
        const expected = Buffer.from(record.hash, 'base64');
        // Any text is hashed: a wrong shape costs a try like a wrong PIN, and takes as long.
        const actual = await derive(pin, Buffer.from(record.salt, 'base64'), record);
        if (actual.length === expected.length && timingSafeEqual(actual, expected)) {
          wrongThisRun.delete(key);
          if (record.wrongTries > 0) await write({ ...records, [key]: { ...record, wrongTries: 0 } });
          return { ok: true };
        }
        // Counted in memory first, so a write that fails still spends the try.
        const wrongTries = wrongBefore + 1;
        wrongThisRun.set(key, wrongTries);
        const blocked = wrongTries >= MAX_PIN_TRIES;
        await write({ ...records, [key]: { ...record, wrongTries, blocked } }).catch((error: unknown) =>
          deps.log.warn('privacy: a wrong PIN could not be counted in the store; counted for this run', {
            error: (error as Error).name,
          }),
        );
        deps.log.warn('privacy: a wrong PIN', { triesLeft: MAX_PIN_TRIES - wrongTries });
        return { ok: false, triesLeft: MAX_PIN_TRIES - wrongTries };
      });
    },
    clearBlocked(service, partnerId) {
      return serially(async () => {
        const { records, unreadable } = await read();
        let cleared = 0;
        for (const [key, record] of Object.entries(records)) {
          const [recordService, recordPartner] = JSON.parse(key) as [string, string, string];
          if (recordService !== service || recordPartner !== partnerId) continue;
          if (record.blocked || (wrongThisRun.get(key) ?? 0) >= MAX_PIN_TRIES) {
            delete records[key];
            wrongThisRun.delete(key);
            cleared += 1;
          }
        }
        // An unreadable store is replaced by an empty one: every clinician chooses a PIN again.
        if (cleared > 0 || unreadable) {
          await write(records);
          deps.log.info('privacy: blocked PINs cleared by the partner token', {
            clinicians: cleared,
            unreadable,
          });
        }
        return cleared;
      });
    },
  };
}
