import { z } from 'zod';
import { consentRecordSchema } from '../../../shared/consent';
import { deliveryTargetSchema } from '../../../shared/delivery-target';
import { createRecordSeal } from './record-seal';

/**
 * A visit's owner and consent, sealed by this app (issue 39, item 6). History (`history.json`) and
 * each spool's manifest are files a user can edit: with `deliverTo` rewritten to another server
 * and Settings pointed at it, Finish would decrypt the patient's audio and stream it there; a
 * `consent` typed into History would show in the note's header and in Copy all as the clinician's
 * attestation. So both are written once, at Start, into a seal (record-seal.ts, bound to the
 * visit's session ID), and read back from the seal alone. A seal
 * that is missing, damaged, made with another key or copied from another visit opens to nothing:
 * the visit is nobody's, its audio is sent nowhere, and it shows no consent (fails closed).
 *
 * Neither changes after Start, so an older copy of a seal says what the newer one does: a visit's
 * seal needs no counter.
 */
export const visitFactsSchema = z.object({
  deliverTo: deliveryTargetSchema,
  consent: consentRecordSchema.optional(),
});
export type VisitFacts = z.infer<typeof visitFactsSchema>;

export interface VisitSeal {
  seal(sessionId: string, facts: VisitFacts): string;
  /** What this app sealed for this visit; undefined for anything else. */
  open(sessionId: string, sealed: string | undefined): VisitFacts | undefined;
}

export function createVisitSeal(spoolKey: Uint8Array): VisitSeal {
  const records = createRecordSeal(spoolKey, 'visit records');
  return {
    seal: (sessionId, facts) => records.seal(sessionId, JSON.stringify(visitFactsSchema.parse(facts))),
    open(sessionId, sealed) {
      const plain = records.open(sessionId, sealed);
      if (plain === undefined) return undefined;
      try {
        const facts = visitFactsSchema.safeParse(JSON.parse(plain));
        return facts.success ? facts.data : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * Until the spool key is had (the keychain did not answer at start): nothing opens, so every
 * visit is nobody's until it loads; nothing is recorded meanwhile either (the spool needs the key).
 */
export const UNAVAILABLE_VISIT_SEAL: VisitSeal = {
  seal() {
    throw new Error('the spool key is not available: a visit cannot be sealed');
  },
  open: () => undefined,
};
