import { describe, expect, it } from 'vitest';
import { ServiceCallError, sentenceFor } from '../service/service-error';
import { authError } from './auth-errors';
import { asSignInProblem } from './sign-in-sentences';

const failure = (status: number, id: string) =>
  new ServiceCallError(status, id, sentenceFor(status, id), 'x');

describe('sign-in problems in words', () => {
  it('gives every failure a clinician can meet while signing in a next step about signing in', () => {
    const cases: [ServiceCallError, RegExp][] = [
      [failure(0, 'unreachable'), /cannot be reached.*Check the network connection, then sign in again\./],
      [failure(0, 'timeout'), /did not answer the sign-in in time\. Sign in again/],
      [failure(503, 'http_503'), /had a problem signing you in\. Sign in again in a few minutes/],
      [failure(500, 'internal_error'), /had a problem signing you in/],
      [failure(401, 'invalid_sdp_token'), /partner ID and partner token\. Check both in Settings/],
      [failure(401, 'http_401'), /refused the sign-in\. Check the service and partner settings/],
      [failure(403, 'http_403'), /refused the sign-in/],
    ];
    for (const [error, sentence] of cases) {
      const worded = asSignInProblem(error, 'bearer');
      expect(worded.sentence).toMatch(sentence);
      expect(worded).toMatchObject({ status: error.status, id: error.id });
    }
  });

  it('keeps the sentences that already fit', () => {
    // A standard partner's refused ID token: signing in again is the step.
    const refused = failure(401, 'invalid_sdp_token');
    expect(asSignInProblem(refused, 'standard')).toBe(refused);
    const mismatch = failure(400, 'invalid_sdp_provider_id');
    expect(asSignInProblem(mismatch, 'single_auth_token')).toBe(mismatch);
    const missing = authError('partner_token_missing');
    expect(asSignInProblem(missing, 'bearer')).toBe(missing);
  });
});
