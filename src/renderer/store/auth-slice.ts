import type { StateCreator } from 'zustand/vanilla';
import type { z } from 'zod';
import {
  ContractError,
  ENCOUNTER_LABELS,
  setPartnerTokenSchema,
  type AuthStatus,
  type ScribeApi,
  type secretsStatusSchema,
} from '../../shared/contract';
import type { Settings } from '../../shared/settings';
import { describeProblems } from '../../shared/validation';
import type { AppState } from './app-store';

export type SecretsStatus = z.infer<typeof secretsStatusSchema>;
export type PartnerTokenState = 'idle' | 'saving' | 'stored' | 'failed';

/**
 * Sign-in as main reports it. Main holds every token; this slice only ever sees the status (who,
 * until when, what went wrong) and whether a partner token is stored. The partner token a person
 * types passes through `savePartnerToken` on its way to main and is not kept here.
 */
export interface AuthSlice {
  auth: AuthStatus | null;
  secrets: SecretsStatus | null;
  /** A sentence when a sign-in verb itself failed (main unreachable); the status's problem otherwise. */
  authError: string | null;
  /**
   * The sign-in page main asked to open (browser mode), kept while the sign-in waits so the panel
   * can offer it again if the browser blocked the new tab. An address, not a credential.
   */
  signInUrl: string | null;
  partnerTokenState: PartnerTokenState;
  /** A sentence for the partner token field. */
  partnerTokenProblem: string | null;
  /**
   * Reads where sign-in stands. Once set up, a Bearer or Single Auth Token partner then signs in
   * by itself (no browser, nothing to ask), so a wrong token or an unreachable service shows now
   * rather than at the first visit; a standard partner waits for the clinician's Sign in.
   */
  loadAuth(): Promise<void>;
  signIn(): Promise<void>;
  cancelSignIn(): Promise<void>;
  signOut(): Promise<void>;
  /** Checks a partner token without sending it ('' = none typed); names the problem on the field. */
  checkPartnerToken(token: string): boolean;
  /** Hands the token to main to store; true when stored (the caller clears its field then). */
  /** `service`: the address being saved with it (main keeps the token for that address alone). */
  savePartnerToken(token: string, service?: Settings['service']): Promise<boolean>;
  receiveAuthStatus(status: AuthStatus): void;
  receiveSignInUrl(url: string): void;
}

export const createAuthSlice =
  (api: ScribeApi): StateCreator<AppState, [], [], AuthSlice> =>
  (set, get) => {
    /** The provider last signed in in this window, to notice another clinician signing in. */
    let lastSignedIn: string | undefined;
    /** Runs one auth verb; its answer is the newest status. */
    async function authVerb(verb: 'auth.signIn' | 'auth.cancelSignIn' | 'auth.signOut'): Promise<void> {
      set({ authError: null });
      try {
        get().receiveAuthStatus(await api.call(verb));
      } catch (error) {
        set({ authError: (error as Error).message });
      }
    }

    return {
      auth: null,
      secrets: null,
      authError: null,
      signInUrl: null,
      partnerTokenState: 'idle',
      partnerTokenProblem: null,
      async loadAuth() {
        try {
          const [auth, secrets] = await Promise.all([api.call('auth.status'), api.call('secrets.status')]);
          set({ secrets, authError: null });
          get().receiveAuthStatus(auth);
        } catch (error) {
          set({ authError: (error as Error).message });
          return;
        }
        const auth = get().auth;
        if (
          get().settings?.firstRunComplete &&
          auth?.model !== 'standard' &&
          !auth?.signedIn &&
          // Signed out by the clinician: only their own Sign in signs in again.
          !auth?.signedOutByClinician &&
          !auth?.signingIn
        ) {
          await get().signIn();
        }
      },
      signIn: () => authVerb('auth.signIn'),
      cancelSignIn: () => authVerb('auth.cancelSignIn'),
      async signOut() {
        // The last keystrokes of a note edit are kept while the clinician is still signed in.
        await get().flushNoteDraft();
        await authVerb('auth.signOut');
        // A shared exam-room laptop: once nobody is signed in, no note, transcript or patient
        // detail stays on screen or in this window's memory (privacy-slice.ts).
        if (!get().auth?.signedIn) get().forgetPatientDetails();
      },
      checkPartnerToken(token) {
        if (token === '') {
          // Nothing typed: nothing to store, and any earlier complaint about the field is over.
          set({ partnerTokenState: 'idle', partnerTokenProblem: null });
          return true;
        }
        const checked = setPartnerTokenSchema.safeParse({ token });
        if (checked.success) {
          set({ partnerTokenState: 'idle', partnerTokenProblem: null });
          return true;
        }
        set({ partnerTokenState: 'failed', partnerTokenProblem: firstProblem(checked.error) });
        return false;
      },
      async savePartnerToken(token, service) {
        if (token === '' || !get().checkPartnerToken(token)) return false;
        set({ partnerTokenState: 'saving' });
        try {
          const secrets = await api.call('secrets.setPartnerToken', {
            token,
            ...(service ? { service } : {}),
          });
          set({ secrets, partnerTokenState: secrets.partnerTokenStored ? 'stored' : 'failed' });
          // A new partner token drops the old service token: show where sign-in stands now.
          get().receiveAuthStatus(await api.call('auth.status'));
          return secrets.partnerTokenStored;
        } catch (error) {
          const field =
            error instanceof ContractError ? error.fields.find((f) => f.field === 'token') : undefined;
          set({
            partnerTokenState: 'failed',
            partnerTokenProblem: field?.message ?? (error as Error).message,
          });
          return false;
        }
      },
      receiveAuthStatus(status) {
        const wasSignedIn = get().auth?.signedIn === true;
        set({ auth: status, ...(status.signingIn ? {} : { signInUrl: null }) });
        if (!status.signedIn) return;
        // Another clinician signed in on this laptop (issue 29): nothing of the last one's
        // patients stays on screen, as after a sign-out.
        const another = lastSignedIn !== undefined && status.providerId !== lastSignedIn;
        if (another) {
          get().forgetPatientDetails();
          // The last clinician's visit is theirs to go back to, not this one's.
          set({ visitToReturnTo: null });
        }
        lastSignedIn = status.providerId;
        // The visit an Open asked for while signed out, refused then: it opens now (issue 37: the
        // refusal stayed under "Signed in as …" until Open was pressed again).
        const refused = get().resultsFor;
        if (!wasSignedIn && !another && refused && get().resultsError && !get().results)
          void get().reopen(refused);
      },
      receiveSignInUrl(url) {
        set({ signInUrl: url });
      },
    };
  };

function firstProblem(error: z.ZodError): string {
  return describeProblems(error, ENCOUNTER_LABELS)[0]?.message ?? 'Partner token is not valid.';
}
