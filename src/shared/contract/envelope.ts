import type { FieldProblem } from '../validation';

/**
 * Stable error codes a verb can fail with. `invalid_request` carries field problems;
 * `service_error` is the documentation service failing or out of reach, in a sentence with the
 * next step; `internal_error` never carries details (they stay in the main-process log).
 */
export type ContractErrorCode =
  'unknown_verb' | 'invalid_request' | 'forbidden' | 'service_error' | 'internal_error';

export interface ContractErrorBody {
  code: ContractErrorCode;
  /** One plain sentence for a person: what happened and what to do. */
  message: string;
  fields?: FieldProblem[];
}

/**
 * What every verb returns across either transport. Errors travel as values, not exceptions,
 * because Electron's ipcMain.handle rewrites thrown errors into an opaque string.
 */
export type ContractResult<T> = { ok: true; value: T } | { ok: false; error: ContractErrorBody };

/** Thrown in the renderer when a verb answers with an error envelope. */
export class ContractError extends Error {
  readonly code: ContractErrorCode;
  readonly fields: FieldProblem[];

  constructor(body: ContractErrorBody) {
    super(body.message);
    this.name = 'ContractError';
    this.code = body.code;
    this.fields = body.fields ?? [];
  }
}
