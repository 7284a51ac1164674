import { z } from 'zod';

// protocol: Notifications (partner-hosted webhook payloads)
export const linkSchema = z.object({ method: z.string(), href: z.string(), name: z.string() });
export type Link = z.infer<typeof linkSchema>;

export const NOTIFICATION_EVENT = 'session_summary_generated';

export const successNotificationSchema = z.object({
  status: z.literal('success'),
  session_id: z.string(),
  encounter_id: z.string(),
  sessions: z.array(z.object({ session_id: z.string(), status: z.string() })).optional(),
  additional_info: z.unknown().optional(),
  _links: z.record(z.string(), z.array(linkSchema)).optional(),
});

// protocol: Notifications (failure error_code values)
export const FAILURE_CODES = [
  'ERROR_CODE_TRANSCRIPTION',
  'ERROR_CODE_NO_SPEECH',
  'ERROR_CODE_NOTE_GENERATION',
  'ERROR_CODE_INTERNAL',
] as const;

export const failureNotificationSchema = z.object({
  status: z.literal('failure'),
  session_id: z.string(),
  encounter_id: z.string(),
  error_code: z.string(),
  error_detail: z.string().optional(),
});

export const notificationSchema = z.discriminatedUnion('status', [
  successNotificationSchema,
  failureNotificationSchema,
]);
export type Notification = z.infer<typeof notificationSchema>;
export type SuccessNotification = z.infer<typeof successNotificationSchema>;
export type FailureNotification = z.infer<typeof failureNotificationSchema>;
