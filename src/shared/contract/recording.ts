import { z } from 'zod';

/**
 * Playing a visit back (issue 38): a stretch of the visit's own recording, by its place in the
 * audio the service received (a transcript line's offsets, ms). A line is seconds long; a stretch
 * is at most two minutes, so an answer stays a few megabytes.
 */
export const MAX_RECORDING_SPAN_MS = 120_000;

/** Why a Finished visit has no Play: said by main to a Play, and by the window over the transcript. */
export const RECORDING_DELETED_AT_FINISHED = 'The recording was deleted when the note was finished.';

export const recordingSpanRequestSchema = z
  .object({
    sessionId: z.string().min(1).max(100),
    fromMs: z
      .number()
      .int({ message: 'must be a whole number of ms' })
      .nonnegative({ message: 'must not be negative' }),
    toMs: z
      .number()
      .int({ message: 'must be a whole number of ms' })
      .positive({ message: 'must be after the start' }),
  })
  .refine((span) => span.toMs > span.fromMs, { message: 'must end after it starts', path: ['toMs'] })
  .refine((span) => span.toMs - span.fromMs <= MAX_RECORDING_SPAN_MS, {
    message: `must be at most ${MAX_RECORDING_SPAN_MS / 1000} s long`,
    path: ['toMs'],
  });

/** 16 kHz mono 16-bit little-endian PCM, base64, and the stretch it really covers (clipped to the audio). */
export const recordingSpanSchema = z.object({
  fromMs: z.number().nonnegative(),
  toMs: z.number().nonnegative(),
  sampleRate: z.literal(16_000),
  pcm: z.string(),
});
export type RecordingSpan = z.infer<typeof recordingSpanSchema>;
