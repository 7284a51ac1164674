import { z } from 'zod';

// protocol: Authentication (Login and Register bodies; partner_token stays in the JSON body)
export const loginRequestSchema = z.object({
  partner_id: z.string().min(1, { message: 'is required' }),
  partner_token: z.string().min(1, { message: 'is required' }),
  provider_id: z.string().min(1).max(255).optional(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const registerRequestSchema = loginRequestSchema.extend({
  provider_name: z.string().min(1, { message: 'is required' }).max(255),
  provider_org_id: z.string().min(1, { message: 'is required' }).max(255),
  provider_specialty: z.string().min(1).max(64).optional(),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

// protocol: Authentication (200 {"service_token", "expires_in": 3600})
export const loginResponseSchema = z.object({
  service_token: z.string().min(1),
  expires_in: z.number().positive().optional(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** The service's error body: `{code, message}` where message is "<id>: <prose>". */
export const serviceErrorSchema = z.object({ code: z.number().int(), message: z.string() });
export type ServiceErrorBody = z.infer<typeof serviceErrorSchema>;

/** The stable id at the start of an error message ("invalid_sdp_token: token expired"). */
export function errorIdOf(message: string): string {
  const colon = message.indexOf(':');
  return colon > 0 ? message.slice(0, colon).trim() : message.trim();
}
