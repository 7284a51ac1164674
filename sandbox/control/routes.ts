import type { FastifyInstance } from 'fastify';
import { ServiceError, sendError } from '../errors';
import type { SessionRecord } from '../sessions/session-record';
import type { SessionStore } from '../sessions/session-store';
import type { ServiceTokens } from '../auth/service-tokens';
import type { StreamHub } from '../stream/stream-route';
import { parseBody } from '../validation';
import { faultRequestSchema, type FaultState } from './faults';

export interface ControlDeps {
  store: SessionStore;
  streams: StreamHub;
  tokens: ServiceTokens;
  faults: FaultState;
  notifications(): unknown[];
  providers(): unknown[];
}

/**
 * The test control API under /__sandbox/ (documented in docs/protocol.md): what the service
 * received, and faults to inject. Not part of the service interface; a client must not use it.
 */
export function registerControlRoutes(app: FastifyInstance, deps: ControlDeps): void {
  const { store } = deps;
  const find = (id: string): SessionRecord => {
    const session = store.get(id);
    if (!session) throw new ServiceError(404, 'session_not_found', 'no such session');
    return session;
  };
  const summary = async (session: SessionRecord) => ({
    id: session.id,
    kind: session.kind,
    encounter_id: session.encounterId,
    partner_id: session.partnerId,
    provider_id: session.providerId,
    status: session.status,
    received_bytes: session.receivedBytes,
    received_ms: session.receivedBytes / 32,
    pcm_sha256: await store.audioSha256(session),
    connections: session.connections,
    pings: session.pings ?? 0,
    stream_open: deps.streams.active(session.id) !== undefined,
    context: session.context,
    form_items: session.formItems,
    timeline: session.timeline,
    engine: session.result?.engine,
    failure: session.failure,
    feedback: session.feedback,
  });

  app.get('/__sandbox/sessions', async () => ({ sessions: await Promise.all(store.list().map(summary)) }));
  app.get('/__sandbox/sessions/:id', async (request) => summary(find((request.params as { id: string }).id)));

  app.get('/__sandbox/sessions/:id/audio.wav', async (request, reply) => {
    const session = find((request.params as { id: string }).id);
    const pcm = await store.readAudio(session);
    return reply.type('audio/wav').send(Buffer.concat([wavHeader(pcm.length), pcm]));
  });

  app.get('/__sandbox/notifications', async () => ({ deliveries: deps.notifications() }));
  app.get('/__sandbox/providers', async () => ({ providers: deps.providers() }));

  app.post('/__sandbox/faults', async (request, reply) => {
    const fault = parseBody(faultRequestSchema, request.body);
    switch (fault.action) {
      case 'drop_stream':
      case 'stall_stream': {
        const ms = fault.action === 'stall_stream' ? fault.seconds * 1_000 : 0;
        if (fault.which === 'next') {
          if (fault.action === 'drop_stream') deps.streams.dropNext(fault.count ?? 1);
          else deps.streams.stallNext(ms);
          break;
        }
        const targets = deps.streams
          .all()
          .filter((c) => !fault.session_id || c.session.id === fault.session_id);
        if (targets.length === 0)
          return sendError(
            reply,
            409,
            'session_conflict',
            `no open stream to ${fault.action === 'drop_stream' ? 'drop' : 'stall'}`,
          );
        targets.forEach((c) => (fault.action === 'drop_stream' ? c.drop() : c.stallThenReset(ms)));
        break;
      }
      case 'fail_rest':
        deps.faults.failRestRemaining = fault.count;
        break;
      case 'delay_rest':
        deps.faults.restDelayMs = fault.ms;
        break;
      case 'fail_processing':
        deps.faults.failProcessing.add(fault.session_id);
        break;
      case 'alter_note':
        deps.faults.alterNote.set(fault.session_id, { find: fault.find, replace: fault.replace });
        break;
      case 'expire_tokens': {
        const now = Date.now();
        deps.tokens.expireIssuedBefore(now);
        deps.streams.expireTokensIssuedBefore(now);
        break;
      }
      case 'clear':
        deps.faults.failRestRemaining = 0;
        deps.faults.restDelayMs = 0;
        deps.faults.failProcessing.clear();
        deps.faults.alterNote.clear();
        break;
    }
    return { ok: true };
  });
}

/** A 44-byte RIFF header for 16 kHz mono 16-bit PCM. */
export function wavHeader(dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(dataBytes, 40);
  return header;
}
