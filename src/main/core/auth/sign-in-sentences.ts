import type { AuthModel } from '../../../shared/settings';
import { ServiceCallError } from '../service/service-error';

/**
 * The service's failures as they read on the sign-in line. service-error.ts words them for any
 * call ("recording continues and uploads when it is back"); while signing in, the next step is
 * about signing in. The app's own sign-in problems (status 0 with an auth id) already say what to
 * do and are kept as they are, as is anything without a better sentence here.
 */
export function asSignInProblem(error: ServiceCallError, model: AuthModel): ServiceCallError {
  const sentence = signInSentence(error, model);
  return sentence ? new ServiceCallError(error.status, error.id, sentence, error.serviceMessage) : error;
}

function signInSentence(error: ServiceCallError, model: AuthModel): string | undefined {
  if (error.status === 0) {
    if (error.id === 'unreachable') {
      return 'The documentation service cannot be reached, so the app could not sign in. Check the network connection, then sign in again.';
    }
    if (error.id === 'timeout') {
      return 'The documentation service did not answer the sign-in in time. Sign in again in a moment.';
    }
    return undefined;
  }
  if (error.status >= 500) {
    return 'The documentation service had a problem signing you in. Sign in again in a few minutes; if it keeps happening, tell your IT admin.';
  }
  // protocol: Authentication (a refused partner_token is 401 invalid_sdp_token)
  if (error.id === 'invalid_sdp_token' && model !== 'standard') {
    return 'The service did not accept the sign-in with this partner ID and partner token. Check both in Settings, or ask your IT admin for the current token.';
  }
  if (error.id === `http_${error.status}` || error.id === 'invalid_request') {
    return 'The documentation service refused the sign-in. Check the service and partner settings, or ask your IT admin.';
  }
  return undefined;
}
