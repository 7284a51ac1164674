import type { VisitLinks } from '../../../shared/contract/visit-links';
import { readVisitLink, type VisitLink, type VisitLinkReading } from '../../../shared/visit-link';
import type { Logger } from '../ports';
import type { ProviderCheck } from './link-provider';
import { UserFacingError } from '../user-facing-error';

export interface VisitLinkInboxDeps {
  /** The local date as YYYY-MM-DD (a date of birth must be before it). */
  today(): string;
  log: Logger;
  onChange(links: VisitLinks): void;
  /** A visit is being recorded now: a link's visit waits, and nothing of it touches this one. */
  recording(): boolean;
  /** The link's provider against who the app acts as now (link-provider.ts). */
  checkProvider(providerId: string): ProviderCheck;
  /**
   * The clinician confirmed a link's switch to its provider: the app acts as it from now on, for
   * this run only (never stored in the settings).
   */
  switchProvider(providerId: string): Promise<void>;
}

export interface VisitLinkInbox {
  /** A link from the EHR (the shell's command line, a second launch, macOS open-url). */
  open(text: string): VisitLinkReading;
  links(): VisitLinks;
  /**
   * The window fills the next visit in (or has shown a refused link's problems). A link whose
   * provider needs a switch is taken only with the clinician's confirmation.
   */
  take(id: number, options?: { switchProvider?: boolean }): Promise<{ link?: VisitLink }>;
  /** The clinician kept their own visit or sign-in: the next visit's link goes, nothing filled. */
  decline(id: number): void;
  /** Sign out: a waiting link's patient goes with the clinician who was signed in. */
  clear(): void;
}

/**
 * The EHR's visit links (issue 18), held by main until the window uses them: the newest good
 * link is the next visit (a newer one replaces it, as the EHR's last click is the patient in the
 * room); a bad one is kept apart with its problems, so it never pushes a good one out. A link
 * never touches a visit being recorded: it waits as the next visit until that one ends.
 */
export function createVisitLinkInbox(deps: VisitLinkInboxDeps): VisitLinkInbox {
  let lastId = 0;
  let state: VisitLinks = {};
  const change = (next: VisitLinks) => {
    state = next;
    deps.onChange(state);
  };

  const providerCheck = (link: VisitLink): ProviderCheck =>
    link.providerId === undefined ? { kind: 'same' } : deps.checkProvider(link.providerId);

  /** A link for another provider fills nothing, and says why in one sentence. */
  const refuseForProvider = (id: number, check: Extract<ProviderCheck, { kind: 'refused' }>) => {
    // Never the provider IDs: the log says which rule, IT finds who in the window.
    deps.log.warn('visit link: refused', {
      rejectedFields: ['provider_id is not the provider this app acts as'],
    });
    const problems = [{ field: 'provider_id', rule: check.rule }];
    change({ ...state, refused: { id, problems, reason: check.reason } });
    return { ok: false as const, problems };
  };

  return {
    open(text) {
      const reading = readVisitLink(text, deps.today());
      const id = ++lastId;
      if (!reading.ok) {
        // The rules are this app's sentences; a parameter name the EHR made up is kept plain.
        deps.log.warn('visit link: refused', {
          rejectedFields: reading.problems.map((p) => `${loggableField(p.field)} ${p.rule}`),
        });
        change({ ...state, refused: { id, problems: reading.problems } });
        return reading;
      }
      const check = providerCheck(reading.link);
      if (check.kind === 'refused') return refuseForProvider(id, check);
      // Which fields came, never their values: they are the patient's.
      deps.log.info('visit link: opened', {
        linkFields: Object.keys(reading.link),
        whileRecording: deps.recording(),
        ...(check.kind === 'switch' ? { providerSwitch: 'waits for the clinician' } : {}),
      });
      const providerSwitch = check.kind === 'switch' ? { from: check.from, to: check.to } : undefined;
      change({ ...state, next: { id, link: reading.link, ...(providerSwitch ? { providerSwitch } : {}) } });
      return reading;
    },
    links: () => state,
    async take(id, options = {}) {
      if (state.refused?.id === id) {
        const { refused: _read, ...rest } = state;
        change(rest);
        return {};
      }
      const next = state.next;
      if (next?.id !== id) return {};
      if (deps.recording())
        throw new UserFacingError(
          'invalid_request',
          'A visit is being recorded: the visit from the EHR opens once it ends.',
        );
      // Judged again now: who is signed in may have changed since the link came.
      const check = providerCheck(next.link);
      if (check.kind === 'refused') {
        const { next: _gone, ...rest } = state;
        state = rest;
        refuseForProvider(id, check);
        throw new UserFacingError('invalid_request', check.reason);
      }
      if (check.kind === 'switch') {
        if (options.switchProvider !== true)
          throw new UserFacingError(
            'invalid_request',
            `This link is for ${check.to}: confirm in the window to sign in as ${check.to} for it.`,
          );
        await deps.switchProvider(check.to);
        deps.log.info('visit link: the clinician switched to its provider');
      }
      const { next: _taken, ...rest } = state;
      change(rest);
      return { link: next.link };
    },
    decline(id) {
      if (state.next?.id !== id) return;
      const { next: _declined, ...rest } = state;
      deps.log.info('visit link: the clinician kept their own visit');
      change(rest);
    },
    clear() {
      if (state.next || state.refused) change({});
    },
  };
}

/** A link's unknown parameter names are the EHR's text: the log keeps a short, plain form. */
function loggableField(field: string): string {
  return /^[a-z_]{1,32}$/i.test(field) ? field : 'an unknown field';
}
