import type { VisitLinks } from '../../../shared/contract/visit-links';
import { readVisitLink, type VisitLink, type VisitLinkReading } from '../../../shared/visit-link';
import type { Logger } from '../ports';
import { UserFacingError } from '../user-facing-error';

export interface VisitLinkInboxDeps {
  /** The local date as YYYY-MM-DD (a date of birth must be before it). */
  today(): string;
  log: Logger;
  onChange(links: VisitLinks): void;
  /** A visit is being recorded now: a link's visit waits, and nothing of it touches this one. */
  recording(): boolean;
  /** Why this provider may not be used (a policy locks another), or nothing when it may. */
  providerRefusal(providerId: string): string | undefined;
  /** Makes the link's provider the signed-in one (bearer and Single Auth Token partners). */
  useProvider(providerId: string): Promise<void>;
}

export interface VisitLinkInbox {
  /** A link from the EHR (the shell's command line, a second launch, macOS open-url). */
  open(text: string): VisitLinkReading;
  links(): VisitLinks;
  /** The window fills the next visit in (or has shown a refused link's problems). */
  take(id: number): Promise<{ link?: VisitLink }>;
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

  return {
    open(text) {
      const reading = withProviderRule(readVisitLink(text, deps.today()), deps.providerRefusal);
      const id = ++lastId;
      if (reading.ok) {
        // Which fields came, never their values: they are the patient's.
        deps.log.info('visit link: opened', {
          linkFields: Object.keys(reading.link),
          whileRecording: deps.recording(),
        });
        change({ ...state, next: { id, link: reading.link } });
      } else {
        // The rules are this app's sentences; a parameter name the EHR made up is kept plain.
        deps.log.warn('visit link: refused', {
          rejectedFields: reading.problems.map((p) => `${loggableField(p.field)} ${p.rule}`),
        });
        change({ ...state, refused: { id, problems: reading.problems } });
      }
      return reading;
    },
    links: () => state,
    async take(id) {
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
      if (next.link.providerId !== undefined) await deps.useProvider(next.link.providerId);
      const { next: _taken, ...rest } = state;
      change(rest);
      return { link: next.link };
    },
    clear() {
      if (state.next || state.refused) change({});
    },
  };
}

/** A provider the policy does not allow is one more problem: such a link fills nothing. */
function withProviderRule(
  reading: VisitLinkReading,
  providerRefusal: (providerId: string) => string | undefined,
): VisitLinkReading {
  if (!reading.ok || reading.link.providerId === undefined) return reading;
  const rule = providerRefusal(reading.link.providerId);
  return rule ? { ok: false, problems: [{ field: 'provider_id', rule }] } : reading;
}

/** A link's unknown parameter names are the EHR's text: the log keeps a short, plain form. */
function loggableField(field: string): string {
  return /^[a-z_]{1,32}$/i.test(field) ? field : 'an unknown field';
}
