import { z } from 'zod';

/** What the test control API can break (POST /__sandbox/faults). */
export const faultRequestSchema = z.discriminatedUnion('action', [
  /** Cut stream connections without a close frame, like a network drop. */
  z.object({
    action: z.literal('drop_stream'),
    which: z.enum(['current', 'next']),
    session_id: z.string().optional(),
    count: z.number().int().min(1).max(100).optional(),
  }),
  /**
   * Stop reading stream connections for `seconds`, then reset their TCP connection (RST): a
   * service that hangs and dies. With ACK off, only pongs tell the client what was read.
   */
  z.object({
    action: z.literal('stall_stream'),
    which: z.enum(['current', 'next']),
    session_id: z.string().optional(),
    seconds: z.number().positive().max(600),
  }),
  /** Answer the next N REST calls (not /__sandbox) with 500 internal_error. */
  z.object({ action: z.literal('fail_rest'), count: z.number().int().min(1).max(1000) }),
  /** Delay every REST response by ms until cleared (ms 0 clears). */
  z.object({ action: z.literal('delay_rest'), ms: z.number().int().min(0).max(120_000) }),
  /** Make processing of a session fail (status failed, ERROR_CODE_INTERNAL). */
  z.object({ action: z.literal('fail_processing'), session_id: z.string().min(1) }),
  /**
   * Every service token issued before now expires at once: REST calls with one get 401
   * invalid_sdp_token, and open streams close with 4001, as when a token's lifetime runs out.
   */
  z.object({ action: z.literal('expire_tokens') }),
  /**
   * The note written for this session has its first `find` replaced by `replace` (issue 38: an
   * error injected into a note, as an AI scribe makes them, for the window's check to flag).
   */
  z.object({
    action: z.literal('alter_note'),
    session_id: z.string().min(1),
    find: z.string().min(1).max(500),
    replace: z.string().max(500),
  }),
  /** Clear every fault. */
  z.object({ action: z.literal('clear') }),
]);
export type FaultRequest = z.infer<typeof faultRequestSchema>;

export interface FaultState {
  failRestRemaining: number;
  restDelayMs: number;
  failProcessing: Set<string>;
  /** Notes to alter when they are written, by session id. */
  alterNote: Map<string, NoteAlteration>;
}

export interface NoteAlteration {
  find: string;
  replace: string;
}

export function createFaultState(): FaultState {
  return { failRestRemaining: 0, restDelayMs: 0, failProcessing: new Set(), alterNote: new Map() };
}
