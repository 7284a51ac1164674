import type {
  FeedbackRequest,
  FilledForm,
  FormContextItem,
  SessionContext,
  SummarySection,
  TranscriptEntry,
} from '../../src/shared/service';

/** Ambient sessions and form-filling sessions share the stream and processing machinery. */
export type SessionKind = 'ambient' | 'form';

export interface TimelineEvent {
  /** Wall-clock ms. */
  at: number;
  /** e.g. "connect", "disconnect", "PAUSE", "RESUME", "KEEP_ALIVE", "EOF", "close:4008", "status:processing". */
  type: string;
  detail?: string;
}

export interface SessionResult {
  engine: string;
  speechMs: number;
  transcript: TranscriptEntry[];
  summary?: SummarySection[];
  forms?: FilledForm[];
}

export interface SessionRecord {
  id: string;
  kind: SessionKind;
  encounterId: string;
  partnerId: string;
  providerId: string;
  createdAt: number;
  /** One of docs/protocol.md's status values. */
  status: string;
  context: SessionContext;
  formItems: FormContextItem[];
  /** Audio bytes accepted across all connections (the ACK extension's received_bytes). */
  receivedBytes: number;
  connections: number;
  /** WebSocket pings read on its stream connections (control API only: how often a client pings). */
  pings?: number;
  timeline: TimelineEvent[];
  result?: SessionResult;
  failure?: { error_code: string; error_detail: string };
  feedback: (FeedbackRequest & { form_id: string; at: number })[];
}

/** Statuses in which audio may still arrive (the session is resumable). */
export const OPEN_STATUSES: readonly string[] = ['created', 'running', 'paused', 'aborted'];
