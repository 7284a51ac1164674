import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';

/**
 * The service's error ids (docs/protocol.md "Authentication"); every error body is
 * `{"code": <http status>, "message": "<id>: <prose>"}`.
 */
export type ErrorId =
  | 'invalid_sdp_token'
  | 'provider_not_registered'
  | 'missing_sdp_provider_id_header'
  | 'invalid_sdp_provider_id'
  | 'invalid_request'
  | 'invalid_ambient_id_format'
  | 'invalid_context_request'
  | 'invalid_end_session_request'
  | 'session_not_found'
  | 'session_conflict'
  | 'not_ready'
  | 'internal_error';

export interface ErrorBody {
  code: number;
  message: string;
}

/** Thrown by handlers; the error handler turns it into the service's error body. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly id: ErrorId,
    readonly prose: string,
  ) {
    super(`${id}: ${prose}`);
  }

  body(): ErrorBody {
    // protocol: Authentication (every error body is {code, message}; message starts with the id)
    return { code: this.status, message: `${this.id}: ${this.prose}` };
  }
}

export function sendError(reply: FastifyReply, status: number, id: ErrorId, prose: string): FastifyReply {
  return reply.code(status).send(new ServiceError(status, id, prose).body());
}

/**
 * Nothing a client sends may produce a 5xx: malformed JSON, oversized bodies, wrong content types
 * and unknown routes all get a 4xx in the service's shape. A 500 is left only for our own bugs.
 */
export function installErrorHandling(app: FastifyInstance, onBug: (error: unknown) => void): void {
  app.setErrorHandler((error: FastifyError | ServiceError, _request, reply) => {
    if (error instanceof ServiceError) return reply.code(error.status).send(error.body());
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, status, 'invalid_request', describeClientError(error));
    }
    onBug(error);
    return sendError(reply, 500, 'internal_error', 'the sandbox failed unexpectedly');
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, 'invalid_request', `no endpoint ${request.method} ${request.url.split('?')[0]}`),
  );
}

function describeClientError(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'request body too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Content-Type must be application/json';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'body must be a JSON object';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'body is not valid JSON';
    default:
      return error.message.replace(/^[A-Z_]+: /, '') || 'bad request';
  }
}
