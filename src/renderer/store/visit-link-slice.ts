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
  /** Fills the next visit with the link's details and signs its provider in; false if none. */
  openLinkedVisit(): Promise<boolean>;
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

    async openLinkedVisit() {
      const next = get().visitLinks.next;
      if (!next) return false;
      set({ visitLinkError: null });
      let link;
      try {
        ({ link } = await api.call('visitLinks.take', { id: next.id }));
      } catch (error) {
        set({ visitLinkError: (error as Error).message });
        return false;
      }
      if (!link) return false;
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
      set({ linkedEncounterId: link.encounterId, waitingLinkId: null });
      // Main made the link's provider the signed-in one: the settings and sign-in say so now.
      if (link.providerId !== undefined) await Promise.all([get().loadSettings(), get().loadAuth()]);
      return true;
    },

    async dismissRefusedLink() {
      const refused = get().visitLinks.refused;
      if (!refused) return;
      const { refused: _read, ...rest } = get().visitLinks;
      set({ visitLinks: rest });
      await api.call('visitLinks.take', { id: refused.id }).catch(() => undefined);
    },
  });
