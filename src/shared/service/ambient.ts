import { z } from 'zod';
import { encounterIdSchema, uuidV4Schema } from './ids';

// protocol: Ambient session (create; session_group_id is the legacy name of encounter_id)
export const createSessionRequestSchema = z.object({
  encounter_id: encounterIdSchema.optional(),
  session_group_id: encounterIdSchema.optional(),
  ambient_session_id: z.string().optional(),
});
export const createSessionResponseSchema = z.object({ ambient_session_id: uuidV4Schema });

export const SEXES = ['MALE', 'FEMALE', 'OTHER', 'UNKNOWN'] as const;
export type Sex = (typeof SEXES)[number];

export const DATE_OF_BIRTH_RULE = 'must be a real past date written YYYY-MM-DD';

/** A real calendar date (no 2023-02-30), not in the future. `today` is YYYY-MM-DD. */
export function isPastIsoDate(value: string, today: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real && year >= 1850 && value <= today;
}

// protocol: Ambient session (context body; patient_info.date_of_birth "YYYY-MM-DD")
export const sessionContextSchema = z.object({
  provider_specialty: z.string().min(1).max(64).optional(),
  sections: z.array(z.string().min(1).max(64)).max(50).optional(),
  patient_info: z
    .object({
      date_of_birth: z.string().optional(),
      sex: z.enum(SEXES, { message: 'must be one of MALE, FEMALE, OTHER, UNKNOWN' }).optional(),
    })
    .optional(),
});
export type SessionContext = z.infer<typeof sessionContextSchema>;

// protocol: Ambient session (status values; terminal: completed, failed, skipped, cancelled)
export const KNOWN_STATUSES = [
  'created',
  'running',
  'paused',
  'aborted',
  'processing',
  'completed',
  'failed',
  'skipped',
  'cancelled',
] as const;
export type KnownStatus = (typeof KNOWN_STATUSES)[number];
export const TERMINAL_STATUSES: readonly string[] = ['completed', 'failed', 'skipped', 'cancelled'];

/** Unknown values are non-terminal (the client stays tolerant of new states). */
export function isTerminalStatus(status: string): boolean {
  return TERMINAL_STATUSES.includes(status);
}

export const statusResponseSchema = z.object({ status: z.string() });

// protocol: Ambient session (transcript offsets {hours, minutes, seconds, nanos})
export const offsetSchema = z.object({
  hours: z.number().int().nonnegative(),
  minutes: z.number().int().nonnegative(),
  seconds: z.number().int().nonnegative(),
  nanos: z.number().int().nonnegative(),
});
export type Offset = z.infer<typeof offsetSchema>;

export function offsetFromMs(ms: number): Offset {
  const whole = Math.max(0, Math.round(ms));
  return {
    hours: Math.floor(whole / 3_600_000),
    minutes: Math.floor((whole % 3_600_000) / 60_000),
    seconds: Math.floor((whole % 60_000) / 1000),
    nanos: (whole % 1000) * 1_000_000,
  };
}

export function msFromOffset(offset: Offset): number {
  return (
    offset.hours * 3_600_000 + offset.minutes * 60_000 + offset.seconds * 1000 + offset.nanos / 1_000_000
  );
}

export const transcriptEntrySchema = z.object({
  transcript_id: z.string(),
  transcript: z.string(),
  speaker: z.string().optional(),
  start_offset: offsetSchema,
  end_offset: offsetSchema,
});
export type TranscriptEntry = z.infer<typeof transcriptEntrySchema>;
export const transcriptResponseSchema = z.object({ final_transcript: z.array(transcriptEntrySchema) });

export const summarySectionSchema = z.object({
  title: z.string(),
  content: z.string(),
  loinc_code: z.string().optional(),
  source_transcripts: z.array(z.string()).optional(),
});
export type SummarySection = z.infer<typeof summarySectionSchema>;

// protocol: Ambient session (a section the conversation said nothing about)
/**
 * The content of a section the service found nothing for: this sentence, with no
 * source_transcripts. The sandbox writes it; the client shows such a section as empty and copies
 * none of it. An empty content means the same (a service may send that instead).
 */
export const NOTHING_FOUND_CONTENT = 'Nothing relevant to this section was found in the conversation.';

/** The service found nothing for this section: its content is the sentence above, or empty. */
export function isNothingFound(section: Pick<SummarySection, 'content'>): boolean {
  const content = section.content.trim();
  return content === '' || content === NOTHING_FOUND_CONTENT;
}
export const contentResponseSchema = z.object({ summary: z.array(summarySectionSchema) });
