import type { FastifyInstance } from 'fastify';
import {
  createFormSessionRequestSchema,
  feedbackRequestSchema,
  formContextRequestSchema,
  formItemKey,
  type FormContextItem,
  type FormTemplate,
} from '../../src/shared/service';
import { endSession, notReady, type AmbientRouteDeps } from '../ambient/routes';
import { ServiceError } from '../errors';
import { callerOf } from '../request-caller';
import { OPEN_STATUSES } from '../sessions/session-record';
import { parseBody } from '../validation';

export interface FormRouteDeps extends Omit<AmbientRouteDeps, 'today'> {
  templates: readonly FormTemplate[];
}

const SESSION = '/api/v1/form-filling/session/:id';

/** The eight form-filling endpoints and the templates list (spec "Form filling and reference endpoints"). */
export function registerFormRoutes(app: FastifyInstance, deps: FormRouteDeps): void {
  const { store } = deps;
  const owned = (params: unknown, request: Parameters<typeof callerOf>[0]) =>
    store.owned((params as { id: string }).id, callerOf(request), 'form');

  app.get('/api/v1/info/service-medical-form-templates', async () => ({ templates: deps.templates }));

  // protocol: Form filling (create → 201 {"session_id"})
  app.post('/api/v1/form-filling/session/create', async (request, reply) => {
    const body = parseBody(createFormSessionRequestSchema, request.body);
    const session = await store.create('form', body.encounter_id, callerOf(request));
    return reply.code(201).send({ session_id: session.id });
  });

  const applyContext = (replace: boolean) => async (request: Parameters<typeof callerOf>[0]) => {
    const session = owned(request.params, request);
    const body = parseBody(formContextRequestSchema, request.body, 'invalid_context_request');
    const items = body.context.form_filling.values;
    const unknown = items.filter(
      (i) => i.form_template_id && !deps.templates.some((t) => t.form_template_id === i.form_template_id),
    );
    if (unknown.length > 0) {
      throw new ServiceError(
        400,
        'invalid_context_request',
        `unknown form_template_id ${unknown.map((i) => i.form_template_id).join(', ')}`,
      );
    }
    if (!OPEN_STATUSES.includes(session.status)) {
      throw new ServiceError(
        400,
        'invalid_context_request',
        `the session is ${session.status}; context can no longer change`,
      );
    }
    // protocol: Form filling (POST replaces, PATCH merges by item key)
    session.formItems = replace ? items : mergeItems(session.formItems, items);
    store.record(session, replace ? 'context' : 'context:patch');
    await store.save(session);
    return {};
  };
  app.post(`${SESSION}/context`, applyContext(true));
  app.patch(`${SESSION}/context`, applyContext(false));

  app.post(`${SESSION}/end`, async (request, reply) => {
    const session = owned(request.params, request);
    endSession(session.id, deps);
    return reply.code(202).send({});
  });

  app.get(`${SESSION}/status`, async (request) => ({ status: owned(request.params, request).status }));

  app.get(`${SESSION}/structured-data`, async (request) => {
    const session = owned(request.params, request);
    if (session.status !== 'completed' || !session.result) throw notReady(session.status);
    return { forms: session.result.forms ?? [] };
  });

  // protocol: Form filling (feedback POST .../{session_id}/{form_id}/feedback → 201)
  app.post('/api/v1/form-filling/session/:id/:formId/feedback', async (request, reply) => {
    const session = owned(request.params, request);
    const { formId } = request.params as { formId: string };
    const feedback = parseBody(feedbackRequestSchema, request.body);
    const forms = session.result?.forms ?? [];
    if (!forms.some((f) => f.form_id === formId)) {
      throw new ServiceError(404, 'session_not_found', `no form ${formId} in this session's results`);
    }
    session.feedback.push({ ...feedback, form_id: formId, at: Date.now() });
    await store.save(session);
    return reply.code(201).send({});
  });
}

function mergeItems(current: FormContextItem[], patch: FormContextItem[]): FormContextItem[] {
  const byKey = new Map(current.map((item) => [formItemKey(item), item]));
  for (const item of patch) byKey.set(formItemKey(item), item);
  return [...byKey.values()];
}
