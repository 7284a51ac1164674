import { z } from 'zod';

// protocol: Ambient session (encounter_id: 1–255 characters from [A-Za-z0-9])
export const ENCOUNTER_ID_RULE = 'must be 1 to 255 letters and digits (A–Z, a–z, 0–9), nothing else';
export const encounterIdSchema = z.string().regex(/^[A-Za-z0-9]{1,255}$/, { message: ENCOUNTER_ID_RULE });

// protocol: Ambient session (ambient_session_id is a UUID v4)
export const UUID_V4_RULE = 'must be a UUID version 4 (like 3f2504e0-4f89-41d3-9a0c-0305e82c3301)';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const uuidV4Schema = z.string().regex(UUID_V4, { message: UUID_V4_RULE });

export function isUuidV4(value: string): boolean {
  return UUID_V4.test(value);
}
