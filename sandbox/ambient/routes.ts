import type { FastifyInstance } from 'fastify';
import {
  createSessionRequestSchema,
  DATE_OF_BIRTH_RULE,
  isPastIsoDate,
  isUuidV4,
  SECTION_NAMES,
  sessionContextSchema,
  SPECIALTIES,
  type SummarySection,
} from '../../src/shared/service';
import { ServiceError } from '../errors';
import { callerOf } from '../request-caller';
import { OPEN_STATUSES } from '../sessions/session-record';
import type { SessionStore } from '../sessions/session-store';
import type { StreamHub } from '../stream/stream-route';
import { parseBody } from '../validation';

export interface AmbientRouteDeps {
  store: SessionStore;
  streams: StreamHub;
  startProcessing(sessionId: string): void;
  today(): string;
}

// protocol: Hosts and paths (ambient paths under /api/v1/ambient/session/...)
const SESSION = '/api/v1/ambient/session/:id';

export function registerAmbientRoutes(app: FastifyInstance, deps: AmbientRouteDeps): void {
  const { store } = deps;

  app.post('/api/v1/ambient/session/create', async (request, reply) => {
    const body = parseBody(createSessionRequestSchema, request.body);
    // protocol: Ambient session (session_group_id is the legacy name of encounter_id)
    const encounterId = body.encounter_id ?? body.session_group_id;
    if (!encounterId) throw new ServiceError(400, 'invalid_request', 'encounter_id is required');
    if (body.ambient_session_id !== undefined && !isUuidV4(body.ambient_session_id)) {
      throw new ServiceError(400, 'invalid_ambient_id_format', 'ambient_session_id must be a UUID v4');
    }
    const session = await store.create(
      'ambient',
      encounterId,
      callerOf(request),
      body.ambient_session_id?.toLowerCase(),
    );
    return reply.code(201).send({ ambient_session_id: session.id });
  });

  app.post(`${SESSION}/context`, async (request, reply) => {
    const session = store.owned((request.params as { id: string }).id, callerOf(request), 'ambient');
    const context = parseBody(sessionContextSchema, request.body, 'invalid_context_request');
    const problems: string[] = [];
    const dob = context.patient_info?.date_of_birth;
    if (dob !== undefined && !isPastIsoDate(dob, deps.today()))
      problems.push(`patient_info.date_of_birth ${DATE_OF_BIRTH_RULE}`);
    const unknown = (context.sections ?? []).filter((s) => !(SECTION_NAMES as string[]).includes(s));
    if (unknown.length > 0)
      problems.push(`sections has unknown names ${unknown.join(', ')}; use ${SECTION_NAMES.join(', ')}`);
    if (
      context.provider_specialty &&
      !(SPECIALTIES as readonly string[]).includes(context.provider_specialty)
    ) {
      problems.push(`provider_specialty must be one of ${SPECIALTIES.join(', ')}`);
    }
    if (problems.length > 0) throw new ServiceError(400, 'invalid_context_request', problems.join('; '));
    if (!OPEN_STATUSES.includes(session.status)) {
      throw new ServiceError(
        400,
        'invalid_context_request',
        `the session is ${session.status}; context can no longer change`,
      );
    }
    session.context = context;
    store.record(session, 'context');
    await store.save(session);
    return reply.code(200).send({});
  });

  app.post(`${SESSION}/end`, async (request, reply) => {
    const session = store.owned((request.params as { id: string }).id, callerOf(request), 'ambient');
    endSession(session.id, deps);
    return reply.code(202).send({});
  });

  app.get(`${SESSION}/status`, async (request) => {
    const session = store.owned((request.params as { id: string }).id, callerOf(request), 'ambient');
    return { status: session.status };
  });

  app.get(`${SESSION}/content`, async (request) => {
    const session = store.owned((request.params as { id: string }).id, callerOf(request), 'ambient');
    // protocol: Ambient session (content: 409 before completion)
    if (session.status !== 'completed' || !session.result) throw notReady(session.status);
    return { summary: session.result.summary ?? [] };
  });

  app.get(`${SESSION}/transcript`, async (request) => {
    const session = store.owned((request.params as { id: string }).id, callerOf(request), 'ambient');
    if (session.status !== 'completed' || !session.result) throw notReady(session.status);
    return { final_transcript: session.result.transcript };
  });

  // protocol: Hosts and paths (encounter content merged over the encounter's completed sessions)
  app.get('/api/v1/ambient/encounter/:encounterId/content', async (request) => {
    const owner = callerOf(request);
    const { encounterId } = request.params as { encounterId: string };
    const sessions = store
      .list()
      .filter(
        (s) =>
          s.kind === 'ambient' &&
          s.encounterId === encounterId &&
          s.partnerId === owner.partnerId &&
          s.providerId === owner.providerId,
      )
      .sort((a, b) => a.createdAt - b.createdAt);
    if (sessions.length === 0)
      throw new ServiceError(404, 'session_not_found', 'no sessions for this encounter');
    const done = sessions.filter((s) => s.status === 'completed' && s.result?.summary);
    if (done.length === 0) throw notReady('not completed');
    return { summary: mergeSummaries(done.map((s) => s.result?.summary ?? [])) };
  });
}

/** Shared by ambient and form-filling sessions: close any open stream, then start processing. */
export function endSession(
  sessionId: string,
  deps: Pick<AmbientRouteDeps, 'store' | 'streams' | 'startProcessing'>,
): void {
  const session = deps.store.get(sessionId);
  if (!session) throw new ServiceError(404, 'session_not_found', 'no such session');
  if (!OPEN_STATUSES.includes(session.status)) {
    throw new ServiceError(400, 'invalid_end_session_request', `the session is already ${session.status}`);
  }
  deps.streams.active(session.id)?.close(1000, 'session ended');
  deps.store.setStatus(session, 'processing');
  deps.startProcessing(session.id);
}

export function notReady(status: string): ServiceError {
  return new ServiceError(409, 'not_ready', `results are not available while the session is ${status}`);
}

function mergeSummaries(summaries: SummarySection[][]): SummarySection[] {
  const merged = new Map<string, SummarySection>();
  for (const summary of summaries) {
    for (const section of summary) {
      const existing = merged.get(section.title);
      if (!existing) {
        merged.set(section.title, {
          ...section,
          source_transcripts: [...(section.source_transcripts ?? [])],
        });
        continue;
      }
      existing.content = `${existing.content}\n${section.content}`;
      existing.source_transcripts = [
        ...(existing.source_transcripts ?? []),
        ...(section.source_transcripts ?? []),
      ];
    }
  }
  return [...merged.values()];
}
