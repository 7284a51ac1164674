import { z, type ZodType } from 'zod';
import {
  contentResponseSchema,
  createFormSessionResponseSchema,
  createSessionResponseSchema,
  statusResponseSchema,
  structuredDataResponseSchema,
  templatesResponseSchema,
  transcriptResponseSchema,
  type FeedbackRequest,
  type FormContextItem,
  type SessionContext,
} from '../../../shared/service';
import { createServiceCall, type CallOptions, type RestClientOptions } from './rest-client-call';
import type { ServiceCallError } from './service-error';

/**
 * The REST endpoints of the service (spec "Endpoints"; paths and bodies from docs/protocol.md
 * "Ambient session" and "Form filling"). Answers are checked against the shared wire schemas,
 * which ignore extra fields and take any status string. Failures are ServiceCallErrors.
 */

export type { CallOptions, RenewingTokenSource, RestClientOptions } from './rest-client-call';

export type ContentResponse = z.infer<typeof contentResponseSchema>;
export type TranscriptResponse = z.infer<typeof transcriptResponseSchema>;
export type StructuredDataResponse = z.infer<typeof structuredDataResponseSchema>;
export type TemplatesResponse = z.infer<typeof templatesResponseSchema>;

export interface RestClient {
  /** Returns the session id. Pass your own UUID v4 so that a retried create cannot make two sessions. */
  createAmbientSession(
    encounterId: string,
    ambientSessionId?: string,
    options?: CallOptions,
  ): Promise<string>;
  postAmbientContext(sessionId: string, context: SessionContext, options?: CallOptions): Promise<void>;
  endAmbientSession(sessionId: string, options?: CallOptions): Promise<void>;
  /** Any string: unknown values are non-terminal (isTerminalStatus). */
  ambientStatus(sessionId: string, options?: CallOptions): Promise<string>;
  ambientContent(sessionId: string, options?: CallOptions): Promise<ContentResponse>;
  ambientTranscript(sessionId: string, options?: CallOptions): Promise<TranscriptResponse>;
  encounterContent(encounterId: string, options?: CallOptions): Promise<ContentResponse>;

  createFormSession(encounterId: string, options?: CallOptions): Promise<string>;
  /** Replaces the session's form items. */
  postFormContext(sessionId: string, items: FormContextItem[], options?: CallOptions): Promise<void>;
  /** Merges items by key (template id, or the custom schema's form_id). */
  patchFormContext(sessionId: string, items: FormContextItem[], options?: CallOptions): Promise<void>;
  endFormSession(sessionId: string, options?: CallOptions): Promise<void>;
  formStatus(sessionId: string, options?: CallOptions): Promise<string>;
  structuredData(sessionId: string, options?: CallOptions): Promise<StructuredDataResponse>;
  sendFormFeedback(
    sessionId: string,
    formId: string,
    feedback: FeedbackRequest,
    options?: CallOptions,
  ): Promise<void>;
  formTemplates(options?: CallOptions): Promise<TemplatesResponse>;
}

const noAnswer = z.unknown();
const seg = encodeURIComponent;
// protocol: Hosts and paths (ambient paths under /api/v1/ambient/session/{ambient_session_id}/...)
const ambient = (id: string, rest: string) => `/ambient/session/${seg(id)}/${rest}`;
// protocol: Hosts and paths (form filling: <session> is the form-filling session id)
const form = (id: string, rest: string) => `/form-filling/session/${seg(id)}/${rest}`;

// protocol: Ambient session (end of an ended session → 400 invalid_end_session_request "already processing")
const endedBefore = (error: ServiceCallError) =>
  error.id === 'invalid_end_session_request' &&
  /already (processing|completed|failed|skipped)/.test(error.serviceMessage)
    ? { result: undefined }
    : undefined;

const formContext = (items: FormContextItem[]) => ({ context: { form_filling: { values: items } } });

export function createRestClient(options: RestClientOptions): RestClient {
  const call = createServiceCall(options);
  const get = <T>(operation: string, path: string, schema: ZodType<T>, callOptions?: CallOptions) =>
    call({ operation, method: 'GET', path, schema, idempotent: true }, callOptions);

  return {
    async createAmbientSession(encounterId, ambientSessionId, callOptions) {
      const answer = await call(
        {
          operation: 'ambient.create',
          method: 'POST',
          path: '/ambient/session/create',
          body: {
            encounter_id: encounterId,
            ...(ambientSessionId ? { ambient_session_id: ambientSessionId } : {}),
          },
          schema: createSessionResponseSchema,
          // With the client's own id a repeat cannot create a second session.
          idempotent: ambientSessionId !== undefined,
          // protocol: Ambient session (an id already in use → 409): after a lost answer, it is ours.
          doneAlready: (error) =>
            error.status === 409 && ambientSessionId
              ? { result: { ambient_session_id: ambientSessionId } }
              : undefined,
        },
        callOptions,
      );
      return answer.ambient_session_id;
    },
    async postAmbientContext(sessionId, context, callOptions) {
      await call(
        {
          operation: 'ambient.context',
          method: 'POST',
          path: ambient(sessionId, 'context'),
          body: context,
          schema: noAnswer,
          // Context replaces what was there: sending it twice leaves the same context.
          idempotent: true,
        },
        callOptions,
      );
    },
    async endAmbientSession(sessionId, callOptions) {
      await call(
        {
          operation: 'ambient.end',
          method: 'POST',
          path: ambient(sessionId, 'end'),
          schema: noAnswer,
          idempotent: true,
          doneAlready: endedBefore,
        },
        callOptions,
      );
    },
    async ambientStatus(sessionId, callOptions) {
      return (await get('ambient.status', ambient(sessionId, 'status'), statusResponseSchema, callOptions))
        .status;
    },
    ambientContent: (sessionId, callOptions) =>
      get('ambient.content', ambient(sessionId, 'content'), contentResponseSchema, callOptions),
    ambientTranscript: (sessionId, callOptions) =>
      get('ambient.transcript', ambient(sessionId, 'transcript'), transcriptResponseSchema, callOptions),
    encounterContent: (encounterId, callOptions) =>
      // protocol: Hosts and paths (encounter_content: GET /api/v1/ambient/encounter/{encounter_id}/content)
      get(
        'ambient.encounterContent',
        `/ambient/encounter/${seg(encounterId)}/content`,
        contentResponseSchema,
        callOptions,
      ),

    async createFormSession(encounterId, callOptions) {
      const answer = await call(
        {
          operation: 'form.create',
          method: 'POST',
          path: '/form-filling/session/create',
          body: { encounter_id: encounterId },
          schema: createFormSessionResponseSchema,
          // The service picks the id: a repeat could leave a second, orphaned session.
          idempotent: false,
        },
        callOptions,
      );
      return answer.session_id;
    },
    async postFormContext(sessionId, items, callOptions) {
      await call(
        {
          operation: 'form.context',
          method: 'POST',
          path: form(sessionId, 'context'),
          body: formContext(items),
          schema: noAnswer,
          // protocol: Form filling (POST replaces, PATCH merges by item key: both safe to repeat)
          idempotent: true,
        },
        callOptions,
      );
    },
    async patchFormContext(sessionId, items, callOptions) {
      await call(
        {
          operation: 'form.contextPatch',
          method: 'PATCH',
          path: form(sessionId, 'context'),
          body: formContext(items),
          schema: noAnswer,
          idempotent: true,
        },
        callOptions,
      );
    },
    async endFormSession(sessionId, callOptions) {
      await call(
        {
          operation: 'form.end',
          method: 'POST',
          path: form(sessionId, 'end'),
          schema: noAnswer,
          idempotent: true,
          doneAlready: endedBefore,
        },
        callOptions,
      );
    },
    async formStatus(sessionId, callOptions) {
      return (await get('form.status', form(sessionId, 'status'), statusResponseSchema, callOptions)).status;
    },
    structuredData: (sessionId, callOptions) =>
      get(
        'form.structuredData',
        form(sessionId, 'structured-data'),
        structuredDataResponseSchema,
        callOptions,
      ),
    async sendFormFeedback(sessionId, formId, feedback, callOptions) {
      await call(
        {
          operation: 'form.feedback',
          method: 'POST',
          // protocol: Form filling (feedback: POST /api/v1/form-filling/session/{session_id}/{form_id}/feedback)
          path: form(sessionId, `${seg(formId)}/feedback`),
          body: feedback,
          schema: noAnswer,
          // Each feedback is a new record at the service.
          idempotent: false,
        },
        callOptions,
      );
    },
    formTemplates: (callOptions) =>
      // protocol: Hosts and paths (templates: GET /api/v1/info/service-medical-form-templates)
      get('form.templates', '/info/service-medical-form-templates', templatesResponseSchema, callOptions),
  };
}
