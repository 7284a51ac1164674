import type { z } from 'zod';
import {
  isVerbName,
  verbSchemas,
  type ContractResult,
  type VerbName,
  type VerbResponse,
} from '../../shared/contract';
import { VERB_GATES } from '../../shared/contract/gates';
import { describeProblems } from '../../shared/validation';
import { throttledWarnings } from './logging/throttled-warnings';
import type { Logger } from './ports';
import type { VerbGatekeeper } from './privacy/verb-gatekeeper';
import { ServiceCallError } from './service/service-error';
import { UserFacingError } from './user-facing-error';

type ParsedRequest<V extends VerbName> = z.output<(typeof verbSchemas)[V]['request']>;

export type VerbHandlers = {
  [V in VerbName]: (payload: ParsedRequest<V>) => Promise<VerbResponse<V>> | VerbResponse<V>;
};

export interface ContractRouter {
  /** Runs one verb from an untrusted caller: checks the name and payload, never throws. */
  dispatch(verb: unknown, payload: unknown): Promise<ContractResult<unknown>>;
}

/**
 * The one place a verb's payload is validated, its gate checked (who may call it:
 * shared/contract/gates.ts) and its handler called, for both transports (Electron IPC and the
 * browser-mode socket).
 */
export function createContractRouter(
  handlers: VerbHandlers,
  gatekeeper: VerbGatekeeper,
  log: Logger,
  /** Names people see for payload fields, so a refusal names the field as the UI labels it. */
  fieldLabels: Record<string, string> = {},
): ContractRouter {
  // A caller can provoke refusals at will: they are counted, not each written.
  const warnRefused = throttledWarnings(log);
  return {
    async dispatch(verb, payload) {
      if (!isVerbName(verb)) {
        // Not the name itself: it is whatever the caller sent.
        warnRefused('verb refused: unknown verb');
        return fail('unknown_verb', 'The app asked for something this version does not offer.');
      }
      const parsed = verbSchemas[verb].request.safeParse(payload);
      if (!parsed.success) {
        const fields = describeProblems(parsed.error, fieldLabels);
        // Which fields, never what was in them (a date of birth, a comment) nor the sentences.
        warnRefused('verb refused: invalid input', { verb, rejectedFields: fields.map((f) => f.field) });
        return {
          ok: false,
          error: {
            code: 'invalid_request',
            message: fields.map((f) => f.message).join(' '),
            fields,
          },
        };
      }
      try {
        // Before the handler: a verb cannot forget who may call it.
        await gatekeeper.admit(VERB_GATES[verb], parsed.data);
        const handler = handlers[verb] as (p: unknown) => unknown;
        const value = await handler(parsed.data);
        return { ok: true, value };
      } catch (error) {
        if (error instanceof UserFacingError) {
          log.info('verb refused', { verb, refusal: error.code });
          return { ok: false, error: error.toBody() };
        }
        // The service's failures already carry a sentence for the clinician (service-error.ts).
        if (error instanceof ServiceCallError) {
          log.warn('verb failed at the service', { verb, status: error.status, id: error.id });
          return { ok: false, error: { code: 'service_error', message: error.sentence } };
        }
        // Only the verb and the error class are logged: messages may carry request data.
        log.error('verb failed', { verb, error: (error as Error)?.name ?? 'unknown' });
        return fail(
          'internal_error',
          'Something went wrong inside the app. Try again; if it keeps happening, restart the app.',
        );
      }
    },
  };
}

function fail(code: 'unknown_verb' | 'internal_error', message: string): ContractResult<never> {
  return { ok: false, error: { code, message } };
}
