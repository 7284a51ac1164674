import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { deliveryTargetSchema } from '../../../shared/delivery-target';
import { visitClockSchema } from '../../../shared/visit-clock';

/**
 * A spool's manifest: what the visit is, how far the service acknowledged, and the segment files
 * in order. Rewritten whole and atomically, so a crash leaves the old or the new one.
 */
export const SPOOL_STATES = [
  'recording',
  /** End was pressed: the rest goes to the service when it can be reached, also after a restart. */
  'finishing',
  /** The service has every byte (EOF done); its verdict is still to come. */
  'ended',
  'delivered',
  'discarded',
] as const;
export type SpoolState = (typeof SPOOL_STATES)[number];

const manifestSchema = z.object({
  version: z.literal(1),
  sessionId: z.string(),
  encounterId: z.string(),
  kind: z.enum(['ambient', 'form']),
  /** A form-filling leg of an ambient visit: the ambient session it belongs to. */
  visitSessionId: z.string().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /**
   * The service, partner, provider and sign-in model the visit was recorded for (issues 28 and
   * 39), as written at Start: kept for a person reading the file. What the app believes is
   * `sealed` alone (spooled-visits.ts): a spool whose seal does not open is delivered nowhere.
   */
  deliverTo: deliveryTargetSchema.optional(),
  /**
   * The visit's owner and consent, sealed at Start (sealed/visit-seal.ts, bound to the main
   * leg's session ID): `deliverTo` is read from it alone, so an edited one sends nothing anywhere.
   */
  sealed: z.string().max(8_000).optional(),
  state: z.enum(SPOOL_STATES),
  /** When finishing failed for a reason retrying alone cannot change (see AudioSpool.setFailed). */
  failedAt: z.number().optional(),
  /** The service has every byte before this (its last ACK we saw); a hint for recovery. */
  ackedOffset: z.number().int().nonnegative(),
  segments: z.array(z.object({ name: z.string(), firstOffset: z.number().int().nonnegative() })),
  /**
   * Where the audio sent to the service was captured on the visit clock (shared/visit-clock.ts),
   * so a visit finished by a later run still shows transcript times as the clinician saw them.
   * Absent in older spools and rebuilt manifests: the transcript then keeps the service's times.
   * One that does not read as a clock is dropped, never the manifest with the visit's audio.
   */
  visitClock: visitClockSchema.optional().catch(undefined),
});
export type SpoolManifest = z.infer<typeof manifestSchema>;

const MANIFEST_FILE = 'manifest.json';

/** Throws when the manifest is missing or not a spool manifest. */
export function readSpoolManifest(dir: string): SpoolManifest {
  return manifestSchema.parse(JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')));
}

/** Atomically, fsynced, owner-only. Throws what the disk says (ENOSPC, EIO). */
export function writeSpoolManifest(dir: string, manifest: SpoolManifest): void {
  writeFileAtomic.sync(join(dir, MANIFEST_FILE), JSON.stringify(manifest), { mode: 0o600, fsync: true });
}

/** The segment file named at `segment` in the manifest's list. */
export function segmentAt(manifest: SpoolManifest, segment: number): SpoolManifest['segments'][number] {
  const found = manifest.segments[segment];
  if (!found) throw new RangeError(`the spool has no segment ${segment}`);
  return found;
}
