import { errorIdOf } from '../../../shared/service';

/**
 * A failed call to the service, with the service's stable error id (docs/protocol.md: messages
 * start with an id) and one sentence a clinician can act on.
 */
export class ServiceCallError extends Error {
  constructor(
    /** HTTP status, or 0 when the service could not be reached at all. */
    readonly status: number,
    /** e.g. "invalid_sdp_token", "provider_not_registered", "unreachable", "timeout". */
    readonly id: string,
    /** For people: what happened and what to do. */
    readonly sentence: string,
    /** The service's own message, for logs (never contains tokens). */
    readonly serviceMessage = '',
  ) {
    super(sentence);
    this.name = 'ServiceCallError';
  }

  static fromBody(status: number, body: unknown): ServiceCallError {
    const message =
      typeof (body as { message?: unknown })?.message === 'string'
        ? (body as { message: string }).message
        : '';
    const id = message ? errorIdOf(message) : `http_${status}`;
    return new ServiceCallError(status, id, sentenceFor(status, id), message);
  }
}

/** The sentence a clinician sees for each error the service can give. */
export function sentenceFor(status: number, id: string): string {
  switch (id) {
    case 'invalid_sdp_token':
      return 'The service did not accept the sign-in. Sign in again; if it keeps happening, ask your IT admin to check the partner settings.';
    case 'provider_not_registered':
      return 'This provider is not registered with the service yet.';
    case 'missing_sdp_provider_id_header':
    case 'invalid_sdp_provider_id':
      return 'The provider ID in Settings does not match the sign-in. Check the provider ID.';
    case 'invalid_ambient_id_format':
    case 'invalid_request':
    case 'invalid_context_request':
      return 'The service refused the encounter details. Check them and try again.';
    case 'invalid_end_session_request':
      return 'This recording has already ended.';
    case 'session_not_found':
      return 'The service does not know this recording any more.';
    case 'not_ready':
      return 'The service has not finished with this recording yet.';
    case 'session_conflict':
      return 'The service already has a recording with this identity.';
    case 'invalid_response':
      return 'The documentation service answered in a way this app does not understand. Ask your IT admin to check the app and service versions.';
    case 'unreachable':
      // Said of any call; a recording in progress has its own words (recorder-view.ts), since it
      // keeps going offline.
      return 'The documentation service cannot be reached. Check the network connection, then try again.';
    case 'timeout':
      return 'The documentation service did not answer in time. Try again in a moment.';
    default:
      return status >= 500
        ? 'The documentation service had a problem. Try again in a few minutes; if it keeps happening, tell your IT admin.'
        : 'The documentation service refused the request. Check the service settings, or tell your IT admin.';
  }
}
