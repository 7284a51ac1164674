import type { StateCreator } from 'zustand/vanilla';
import type { ScribeApi } from '../../shared/contract';
import type { VisitLinks } from '../../shared/contract/visit-links';
import { templateSections } from '../../shared/note-templates';
import type { AppState } from './app-store';
import { RECORDING_STATES } from './recording-states';

/**
 * The EHR's visit links (issue 18), as main holds them: a link's visit is filled into the Ready
 * pane, where the clinician still presses Start; one that arrives while a visit records waits as
 * the next visit (New visit opens it once that one has ended); a bad one shows its problems.
 */
export interface VisitLinkSlice {
  visitLinks: VisitLinks;
  /** The next link's id that arrived while a visit recorded: it waits for New visit, not the End. */
  waitingLinkId: number | null;
  /** The encounter the Ready pane was filled with from a link (the pane says so). */
  linkedEncounterId: string | null;
  /** Why the last link's visit could not be opened (main refused its provider, say). */
  visitLinkError: string | null;
  receiveVisitLinks(links: VisitLinks): void;
  loadVisitLinks(): Promise<void>;
  /**
   * Fills the next visit with the link's details; false if none. `switchProvider`: the clinician
   * confirmed the link's provider switch (only offered where the policy allows it).
   */
  openLinkedVisit(options?: { switchProvider?: boolean }): Promise<boolean>;
  /** The clinician keeps their own visit (or sign-in): the link goes, nothing is filled. */
  declineLinkedVisit(): Promise<void>;
  /** The clinician has read why a link could not be used. */
  dismissRefusedLink(): Promise<void>;
}

export const createVisitLinkSlice =
  (api: ScribeApi): StateCreator<AppState, [], [], VisitLinkSlice> =>
  (set, get) => ({
    visitLinks: {},
    waitingLinkId: null,
    linkedEncounterId: null,
    visitLinkError: null,

    receiveVisitLinks(links) {
      // A locked window holds nothing of a patient: the links are asked for again on unlock.
      if (get().locked) return;
      const recording = RECORDING_STATES.has(get().recorder?.state ?? 'idle');
      const arrived = links.next && links.next.id !== get().visitLinks.next?.id;
      set({
        visitLinks: links,
        ...(arrived && recording ? { waitingLinkId: links.next!.id } : {}),
        ...(!links.next ? { waitingLinkId: null } : {}),
      });
    },

    async loadVisitLinks() {
      try {
        get().receiveVisitLinks(await api.call('visitLinks.get'));
      } catch {
        // An older main without visit links, or a reload mid-call: nothing to fill in.
      }
    },

    async openLinkedVisit(options = {}) {
      const next = get().visitLinks.next;
      if (!next) return false;
      set({ visitLinkError: null });
      let link;
      try {
        ({ link } = await api.call('visitLinks.take', {
          id: next.id,
          ...(options.switchProvider ? { switchProvider: true } : {}),
        }));
      } catch (error) {
        set({ visitLinkError: (error as Error).message });
        return false;
      }
      if (!link) return false;
      // A confirmed switch signed the link's provider in: the window is theirs now (the last
      // clinician's patient is forgotten, auth-slice.ts), before their visit is filled in.
      if (next.providerSwitch) await get().loadAuth();
      get().clearResults();
      get().nextVisit();
      const draft = get().ensureDraft();
      const settings = get().settings;
      get().editDraft({
        encounterId: link.encounterId,
        dateOfBirth: link.dateOfBirth ?? '',
        sex: link.sex ?? '',
        specialty: link.specialty ?? draft.specialty,
        template: link.template,
        sections: link.template
          ? templateSections(link.template, settings?.noteSections ?? [])
          : draft.sections,
      });
      // Filled from the link, not typed: a later link replaces it without asking.
      set({ linkedEncounterId: link.encounterId, waitingLinkId: null, draftEdited: false });
      return true;
    },

    async declineLinkedVisit() {
      const next = get().visitLinks.next;
      if (!next) return;
      const { next: _declined, ...rest } = get().visitLinks;
      set({ visitLinks: rest, waitingLinkId: null });
      await api.call('visitLinks.decline', { id: next.id }).catch(() => undefined);
    },

    async dismissRefusedLink() {
      const refused = get().visitLinks.refused;
      if (!refused) return;
      const { refused: _read, ...rest } = get().visitLinks;
      set({ visitLinks: rest });
      await api.call('visitLinks.take', { id: refused.id }).catch(() => undefined);
    },
  });

/**
 * Why a link's visit must wait for the clinician's word instead of opening by itself (issue 28):
 * it would switch the provider (where the policy allows that), take the window out of Settings,
 * or replace visit details the clinician has typed. Undefined when it may open at once.
 */
export type LinkQuestion = 'switch-provider' | 'leave-settings' | 'replace-details';

export function linkQuestion(state: AppState, settingsOpen: boolean): LinkQuestion | undefined {
  const next = state.visitLinks.next;
  if (!next) return undefined;
  if (next.providerSwitch) return 'switch-provider';
  if (settingsOpen) return 'leave-settings';
  const paneIsReady = state.endedAt === null && state.resultsFor === null;
  if (paneIsReady && state.draftEdited) return 'replace-details';
  return undefined;
}
