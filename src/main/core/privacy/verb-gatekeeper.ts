import type { HistoryEntry } from '../../../shared/contract';
import type { VerbGate } from '../../../shared/contract/gates';
import type { EncounterHistory } from '../history/encounter-history';
import { UserFacingError } from '../user-facing-error';
import type { createSignOutGate } from './sign-out-gate';

/** Checks a verb's declared gate (shared/contract/gates.ts) before the router runs its handler. */
export interface VerbGatekeeper {
  /** Throws a UserFacingError, in one sentence saying what to do, when the gate refuses the call. */
  admit(gate: VerbGate, payload: unknown): Promise<void>;
}

/**
 * The gates (issue 39), for every transport alike: signed out or locked, nothing but the open
 * verbs; a visit only for its owner, and a visit History does not know for nobody (fails closed).
 */
export function createVerbGatekeeper(deps: {
  gate: ReturnType<typeof createSignOutGate>;
  history: Pick<EncounterHistory, 'list'>;
  /** Refuses another clinician's visit (clinician-visits.ts). */
  requireMine(entry: HistoryEntry): void;
  /**
   * Whether the clinician the app acts for must still choose their PIN (window-privacy.ts): the
   * window asks before anything else, and so does the contract, for every caller.
   */
  pinMissing(): Promise<'sign in first' | 'choose it' | undefined>;
}): VerbGatekeeper {
  /**
   * A clinician whose sign-in proves nothing (a shared partner token) records only once they have a
   * PIN here: so a clinician with visits on this computer and no PIN kept is a record gone, and
   * fails closed (missing-pin.ts), never a clinician who skipped the step. Signed in without one,
   * nothing but the open verbs and the lock's answers (the window shows only the PIN's step); not
   * signed in yet (a bearer partner signs in at its first call to the service), no visit starts.
   */
  const refuseWithoutPin = async (to: string, startsVisit: boolean) => {
    const missing = await deps.pinMissing();
    if (missing === 'choose it')
      throw new UserFacingError('invalid_request', `Choose your PIN for this computer first, then ${to}.`);
    if (missing === 'sign in first' && startsVisit)
      throw new UserFacingError(
        'invalid_request',
        `Sign in and choose your PIN for this computer first, then ${to}.`,
      );
  };
  return {
    async admit(gate, payload) {
      switch (gate.kind) {
        case 'open':
          return;
        case 'not locked':
          if (deps.gate.locked())
            throw new UserFacingError('invalid_request', `This window is locked: unlock it to ${gate.to}.`);
          return;
        case 'unlocked':
          deps.gate.refuseWhileSignedOut(gate.to);
          await refuseWithoutPin(gate.to, gate.startsVisit === true);
          return;
        case 'owner': {
          deps.gate.refuseWhileSignedOut(gate.to);
          await refuseWithoutPin(gate.to, false);
          const sessionId = (payload as { sessionId?: unknown } | undefined)?.sessionId;
          // The visit's own session, or its form-filling leg's (a form's feedback names that one). Its
          // own entry first: `formSessionId` is not sealed, so another visit's entry naming this
          // session as its form leg (a file edited by hand) must not decide whose it is.
          const entries = deps.history.list();
          const entry =
            typeof sessionId === 'string'
              ? (entries.find((e) => e.sessionId === sessionId) ??
                entries.find((e) => e.formSessionId === sessionId))
              : undefined;
          if (!entry)
            throw new UserFacingError(
              'invalid_request',
              'This app has no visit of that recording: open the visit from History.',
            );
          deps.requireMine(entry);
          return;
        }
      }
    },
  };
}
