import type { LoginRequest } from '../../../shared/service';
import type { AuthModel } from '../../../shared/settings';
import type { SecretValues } from '../logging/secret-values';
import type { Clock, Logger } from '../ports';
import { SECRET_NAMES, type SecretBox } from '../secrets/secret-box';
import { DEFAULT_TIMEOUT_MS, retryPolicy, type RetryPolicy } from '../service/rest-client-transport';
import { ServiceCallError } from '../service/service-error';
import type { ServiceCredentials, ServiceEndpoint, TokenSource } from '../service/token-source';
import { asServiceCallError, authError, isAuthProblem } from './auth-errors';
import type { AuthPhase, AuthStatus } from './auth-status';
import { asSignInProblem } from './sign-in-sentences';
import type { OidcSettings } from './oidc-client';
import { oidcPartnerToken, sharedPartnerToken, type PartnerTokenSource } from './partner-token';
import {
  loginRegisteringOnce,
  type LoginHeaders,
  type LoginResult,
  type RegisterProfile,
} from './service-login';

/**
 * The app's sign-in with the service (spec "Authentication"), as a TokenSource: it logs in with the
 * configured partner model, registers the provider when the service does not know it yet, renews
 * the service token before its lifetime ends and once after the service refuses it, and reports
 * where it stands for the UI. Service tokens live in memory only.
 */

export interface AuthManagerOptions {
  endpoint: ServiceEndpoint;
  partnerId: string;
  authModel: AuthModel;
  /** Bearer and Single Auth Token partners: required. Standard partners: ignored by the service. */
  providerId: string;
  /** For Register. Standard partners fall back to the ID token's name for the name. */
  profile: RegisterProfile;
  /** Standard partners: the partner's identity provider and the app's client id there. */
  oidc?: OidcSettings;
  secrets: SecretBox;
  /** Told every partner token (shared token or ID token) and service token, for the log scrubber. */
  secretValues?: Pick<SecretValues, 'add'>;
  clock: Clock;
  log: Logger;
  /** Standard partners: shows the IdP's sign-in page in the system browser. */
  openExternal?: (url: string) => Promise<void>;
  /** Renew the service token at this fraction of its lifetime; default 0.85. */
  refreshAt?: number;
  /** How long an interactive sign-in may wait for the browser; default 5 minutes. */
  signInTimeoutMs?: number;
  /** Per Login/Register request; default 15 s. */
  requestTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
}

export interface AuthManager extends TokenSource {
  /** renew() with the token the service refused: callers refused the same token share one login. */
  renew(rejectedToken?: string): Promise<ServiceCredentials>;
  status(): AuthStatus;
  onChange(listener: (status: AuthStatus) => void): () => void;
  /**
   * The user's "Sign in": like current(), but a standard partner may open the browser.
   * freshLogin (after the clinician signed out): the IdP asks for the password again.
   */
  signIn(options?: { freshLogin?: boolean }): Promise<AuthStatus>;
  /**
   * Whether the sign-in held now proved the person: a standard partner's came from a sign-in at
   * the IdP that asked for the password (prompt=login, max_age=0, a fresh auth_time); the other
   * models have no such step, and any sign-in held counts.
   */
  passwordProven(): boolean;
  /** Stops a sign-in that waits for the browser; it rejects with sign_in_cancelled. */
  cancelSignIn(): void;
  /** Drops the service token; standard partners also forget (and revoke) the refresh token. */
  signOut(): Promise<void>;
  /**
   * Standard partners: a fresh sign-in at the IdP that must be `providerId` (unlocking a window);
   * rejects with sign_in_failed for anyone else, and keeps the signed-in state as it was. An empty
   * `providerId` (nobody known) takes whoever signs in, with a service token of their own.
   */
  reauthenticate(providerId: string): Promise<void>;
  /** Bearer and Single Auth Token partners: store the partner token (empty removes it). */
  setPartnerToken(token: string): Promise<void>;
  /** Stops timers and pending sign-ins; the manager is not used after this. */
  dispose(): void;
}

const DEFAULT_REFRESH_AT = 0.85;
const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60 * 1000;
/** A token this close to its end is not handed out (at most a tenth of its lifetime). */
const EXPIRY_MARGIN_MS = 30_000;
/** Below this much remaining validity a failed background renewal is not retried on its own. */
const MIN_RETRY_WINDOW_MS = 100;

interface Held extends ServiceCredentials {
  lifetimeMs: number;
}

export function createAuthManager(options: AuthManagerOptions): AuthManager {
  const { clock, log, secrets, authModel } = options;
  const partnerId = options.partnerId.trim();
  const providerId = options.providerId.trim();
  const refreshAt = options.refreshAt ?? DEFAULT_REFRESH_AT;
  const transport = {
    endpoint: options.endpoint,
    timeoutMs: options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry: retryPolicy(options.retry),
    clock,
    log,
  };

  let held: Held | undefined;
  let inFlight: { promise: Promise<ServiceCredentials>; interactive: boolean } | undefined;
  let phase: AuthPhase = 'signed-out';
  let problem: ServiceCallError | undefined;
  let waitingForBrowser = false;
  /** Bumped by signOut/dispose/a new partner token: a login started before must not land. */
  let epoch = 0;
  let stopTimer: (() => void) | undefined;
  /**
   * The clinician pressed Sign out: nothing logs in again until they press Sign in (issue 29). A
   * Bearer partner's token would sign in silently at the next call (a note still being written,
   * say); such calls wait, as they do offline.
   */
  let stayedOut = false;
  /** This sign-in (renewals included) began at the IdP with the password asked: passwordProven(). */
  let provedByPassword = false;
  const listeners = new Set<(status: AuthStatus) => void>();
  let lastEmitted = '';

  const partner: PartnerTokenSource =
    authModel === 'standard' && options.oidc && options.openExternal
      ? oidcPartnerToken({
          settings: options.oidc,
          secrets,
          clock,
          log,
          openExternal: options.openExternal,
          signInTimeoutMs: options.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS,
          onWaiting(waiting) {
            waitingForBrowser = waiting;
            emit();
          },
        })
      : sharedPartnerToken(secrets);

  const publicCredentials = (credentials: Held): ServiceCredentials => {
    const { lifetimeMs: _lifetime, ...rest } = credentials;
    return rest;
  };

  const valid = (credentials: Held | undefined): credentials is Held =>
    credentials !== undefined &&
    clock.now() < credentials.expiresAt - Math.min(EXPIRY_MARGIN_MS, credentials.lifetimeMs / 10);

  function status(): AuthStatus {
    const identity = partner.identity();
    const signedIn = held !== undefined && clock.now() < held.expiresAt;
    return {
      signedIn,
      phase: waitingForBrowser ? 'waiting-for-browser' : phase,
      model: authModel,
      providerId: authModel === 'standard' ? (identity.sub ?? providerId) : providerId,
      ...(identity.name ? { providerName: identity.name } : {}),
      ...(held ? { validUntil: held.expiresAt } : {}),
      ...(problem ? { problem: problem.sentence, problemId: problem.id } : {}),
      secretStorage: secrets.persistence,
      ...(secrets.notice ? { secretNotice: secrets.notice } : {}),
    };
  }

  function emit(): void {
    const next = status();
    const text = JSON.stringify(next);
    if (text === lastEmitted) return;
    lastEmitted = text;
    for (const listener of listeners) listener(next);
  }

  function configProblem(): ServiceCallError | undefined {
    if (!partnerId) return authError('not_configured', 'partner id', 'Enter the partner ID in Settings.');
    if (authModel === 'standard') {
      if (!options.oidc) {
        return authError(
          'not_configured',
          'oidc',
          'Sign-in for this partner needs its identity provider. Ask your IT admin.',
        );
      }
      if (!options.openExternal) return authError('browser_unavailable', 'no openExternal');
      return undefined;
    }
    // protocol: Authentication (Bearer and Single Auth Token: provider_id required on Login and Register)
    if (!providerId) return authError('not_configured', 'provider id', 'Enter the provider ID in Settings.');
    return undefined;
  }

  /** The partner token for Login, made known to the log scrubber first. */
  async function partnerTokenForLogin(request: {
    interactive: boolean;
    fresh?: boolean;
    freshLogin?: boolean;
  }): Promise<string> {
    const token = await partner.get(request);
    options.secretValues?.add(token);
    return token;
  }

  async function loginWith(partnerToken: string): Promise<LoginResult> {
    const request: LoginRequest = {
      partner_id: partnerId,
      partner_token: partnerToken,
      // protocol: Authentication (standard: provider_id optional and ignored; derived from the ID token)
      ...(authModel === 'standard' ? {} : { provider_id: providerId }),
    };
    // protocol: Authentication (Single Auth Token: sdp_provider_id on every REST call, Login and
    // Register included; a strict service answers 400 missing_sdp_provider_id_header without it)
    const headers: LoginHeaders = authModel === 'single_auth_token' ? { sdp_provider_id: providerId } : {};
    return loginRegisteringOnce(
      transport,
      request,
      () => {
        // Standard partners: the IdP knows the clinician's name (or at least their user name).
        const identity = partner.identity();
        return { ...options.profile, name: options.profile.name || identity.name || identity.sub };
      },
      headers,
    );
  }

  async function login(interactive: boolean, freshLogin = false): Promise<ServiceCredentials> {
    const started = epoch;
    phase = held ? 'refreshing' : 'signing-in';
    emit();
    try {
      const misconfigured = configProblem();
      if (misconfigured) throw misconfigured;
      const startedAt = clock.now();
      let result: LoginResult;
      let askedForPassword = false;
      try {
        result = await loginWith(await partnerTokenForLogin({ interactive, freshLogin }));
        askedForPassword = interactive && freshLogin;
      } catch (error) {
        // A standard partner's ID token refused (expired by the service's clock, keys rotated):
        // one fresh ID token through the refresh token, then give up.
        if (!(
          authModel === 'standard' &&
          error instanceof ServiceCallError &&
          error.id === 'invalid_sdp_token'
        )) {
          throw error;
        }
        result = await loginWith(await partnerTokenForLogin({ interactive, fresh: true }));
      }
      options.secretValues?.add(result.serviceToken);
      if (started !== epoch) throw authError('signed_out');
      if (askedForPassword) provedByPassword = true;
      held = {
        serviceToken: result.serviceToken,
        // protocol: Authentication (Single Auth Token: sdp_provider_id = the provider_id of Login)
        ...(authModel === 'single_auth_token' ? { providerHeader: providerId } : {}),
        // Counted from before the request: the service's clock started no later than that.
        expiresAt: startedAt + result.lifetimeMs,
        lifetimeMs: result.lifetimeMs,
      };
      problem = undefined;
      phase = 'signed-in';
      schedule(result.lifetimeMs * refreshAt);
      log.info('auth: signed in to the service', {
        model: authModel,
        validForMs: result.lifetimeMs,
        registered: result.registered,
      });
      emit();
      return publicCredentials(held);
    } catch (thrown) {
      const error = asServiceCallError(thrown);
      if (started === epoch) {
        problem = asSignInProblem(error, authModel);
        phase = isAuthProblem(error, 'sign_in_needed') ? 'sign-in-needed' : held ? 'signed-in' : 'signed-out';
        log.warn('auth: sign-in failed', { model: authModel, status: error.status, id: error.id });
        emit();
      }
      throw error;
    }
  }

  /** One login at a time, shared by every caller that needs one meanwhile (no stampede). */
  function loginOnce(interactive: boolean, freshLogin = false): Promise<ServiceCredentials> {
    if (inFlight) return inFlight.promise;
    const attempt = {
      interactive,
      promise: login(interactive, freshLogin).finally(() => {
        if (inFlight === attempt) inFlight = undefined;
      }),
    };
    inFlight = attempt;
    return attempt.promise;
  }

  function schedule(delayMs: number): void {
    stopTimer?.();
    stopTimer = clock.after(delayMs, () => {
      stopTimer = undefined;
      loginOnce(false).catch((error: unknown) => {
        // The old token still works for a while: try again halfway to its end, unless only the
        // user can fix this (then the status says so and the UI offers "Sign in").
        if (isAuthProblem(error, 'sign_in_needed') || isAuthProblem(error, 'signed_out') || !held) return;
        const remaining = held.expiresAt - clock.now();
        if (remaining > MIN_RETRY_WINDOW_MS) schedule(remaining / 2);
      });
    });
  }

  function reset(): void {
    epoch += 1;
    stopTimer?.();
    stopTimer = undefined;
    held = undefined;
    inFlight = undefined;
    problem = undefined;
    phase = 'signed-out';
    provedByPassword = false;
  }

  return {
    async current() {
      if (valid(held)) return publicCredentials(held);
      if (stayedOut) throw authError('signed_out');
      return loginOnce(false);
    },
    async renew(rejectedToken) {
      // Someone else already replaced the refused token: use the new one.
      if (rejectedToken !== undefined && valid(held) && held.serviceToken !== rejectedToken) {
        return publicCredentials(held);
      }
      if (!inFlight && (rejectedToken === undefined || held?.serviceToken === rejectedToken)) {
        held = undefined;
      }
      if (stayedOut) throw authError('signed_out');
      return loginOnce(false);
    },
    status,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async signIn(options = {}) {
      stayedOut = false;
      // A silent login already under way may make the browser unnecessary: let it finish first.
      if (inFlight && !inFlight.interactive) await inFlight.promise.catch(() => undefined);
      if (!valid(held)) await loginOnce(true, options.freshLogin === true && authModel === 'standard');
      return status();
    },
    passwordProven: () => valid(held) && (authModel !== 'standard' || provedByPassword),
    cancelSignIn() {
      partner.cancel();
    },
    async signOut() {
      partner.cancel();
      reset();
      stayedOut = true;
      await partner.forget();
      log.info('auth: signed out', { model: authModel });
      emit();
    },
    async reauthenticate(expectedProvider) {
      if (authModel !== 'standard')
        throw authError('not_configured', 'only a standard partner signs in again');
      await partner.reauthenticate(expectedProvider === '' ? undefined : expectedProvider);
      // A lock whose clinician was not known: whoever proved it now signs in with a service token
      // of their own, never the last clinician's.
      if (expectedProvider === '') held = undefined;
      // The fresh ID token is the partner token from now on; the next call logs in with it.
      if (!valid(held)) await loginOnce(false);
      emit();
    },
    async setPartnerToken(token) {
      const value = token.trim();
      if (value) await secrets.set(SECRET_NAMES.partnerToken, value);
      else await secrets.delete(SECRET_NAMES.partnerToken);
      // The next call logs in with the new token.
      reset();
      emit();
    },
    dispose() {
      partner.cancel();
      reset();
      listeners.clear();
    },
  };
}
