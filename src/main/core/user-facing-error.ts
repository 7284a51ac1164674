import type { ContractErrorBody, ContractErrorCode } from '../../shared/contract';
import type { FieldProblem } from '../../shared/validation';

/**
 * An error whose message is meant for the clinician. Handlers throw it; the router turns it into
 * an error envelope. Any other thrown error becomes a generic internal_error.
 */
export class UserFacingError extends Error {
  constructor(
    readonly code: ContractErrorCode,
    message: string,
    readonly fields: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'UserFacingError';
  }

  toBody(): ContractErrorBody {
    return this.fields.length > 0
      ? { code: this.code, message: this.message, fields: this.fields }
      : { code: this.code, message: this.message };
  }
}
