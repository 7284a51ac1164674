import type { StateCreator } from 'zustand/vanilla';
import type { ScribeApi } from '../../shared/contract';
import type { NoteDraft } from '../../shared/contract/notes';
import type { AppState } from './app-store';

/**
 * The clinician's edits of the note on screen (issue 29). Each keystroke changes the draft here;
 * main keeps it sealed on disk within a second of the last one (SAVE_DELAY_MS), so a reload, a
 * crash or a restart loses nothing. Sign-out, the idle lock and New visit drop it from the window
 * (clearResults), as they drop the note itself.
 */
export interface NoteSlice {
  /** The edits of the visit whose note is shown; null when none is shown. */
  noteDraft: NoteDraft | null;
  /** A sentence when earlier edits could not be read, or the last ones could not be kept. */
  noteNotice: string | null;
  noteSaveState: 'idle' | 'saving' | 'saved' | 'failed';
  /** The visit's note is shown: its edits (if any) come from main. */
  loadNoteDraft(sessionId: string): Promise<void>;
  /** A section's text as the clinician left it; null goes back to the service's text. */
  editSection(key: string, text: string | null): void;
  /** A value the check flagged, marked Checked by the clinician (true) or not (false): issue 38. */
  markChecked(sectionKey: string, checkKey: string, checked: boolean): void;
  /** A form field's value and unit as corrected; null goes back to the service's. */
  editField(key: string, field: { value: string; unit: string } | null): void;
  /** Keeps what is typed now, without waiting (the window is going away). */
  flushNoteDraft(): Promise<void>;
  /** The note is in the EHR: the visit is finished and its edits leave the disk. True when done. */
  finishNote(sessionId: string): Promise<boolean>;
  /** Undo, a few seconds after finishing. */
  unfinishNote(sessionId: string): Promise<void>;
  forgetNoteDraft(): void;
}

/** Main has the edits within a second of the last keystroke (the bound), in one write. */
export const SAVE_DELAY_MS = 400;

export const createNoteSlice =
  (api: ScribeApi): StateCreator<AppState, [], [], NoteSlice> =>
  (set, get) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** Saves in order: a slow write never lands after a newer one. */
    let saving: Promise<void> = Promise.resolve();

    const save = (): Promise<void> => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      const draft = get().noteDraft;
      if (!draft) return saving;
      set({ noteSaveState: 'saving' });
      saving = saving.then(async () => {
        try {
          await api.call('notes.save', draft);
          if (get().noteDraft === draft) set({ noteSaveState: 'saved', noteNotice: null });
        } catch (error) {
          set({ noteSaveState: 'failed', noteNotice: (error as Error).message });
        }
      });
      return saving;
    };

    const change = (draft: NoteDraft) => {
      set({ noteDraft: draft });
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void save(), SAVE_DELAY_MS);
    };

    return {
      noteDraft: null,
      noteNotice: null,
      noteSaveState: 'idle',

      async loadNoteDraft(sessionId) {
        if (get().noteDraft?.sessionId === sessionId) return;
        set({ noteDraft: { sessionId, sections: {}, fields: {} }, noteNotice: null, noteSaveState: 'idle' });
        try {
          const reading = await api.call('notes.get', { sessionId });
          // Still this visit's note on screen (not left, not locked meanwhile).
          if (get().noteDraft?.sessionId !== sessionId) return;
          set({
            ...(reading.draft ? { noteDraft: reading.draft } : {}),
            noteNotice: reading.notice ?? null,
          });
        } catch (error) {
          if (get().noteDraft?.sessionId === sessionId) set({ noteNotice: (error as Error).message });
        }
      },

      editSection(key, text) {
        const draft = get().noteDraft;
        if (!draft) return;
        const { [key]: _old, ...others } = draft.sections;
        change({ ...draft, sections: text === null ? others : { ...others, [key]: text } });
      },

      markChecked(sectionKey, checkKey, checked) {
        const draft = get().noteDraft;
        if (!draft) return;
        const { [sectionKey]: marked = [], ...others } = draft.checked ?? {};
        const next = marked.filter((key) => key !== checkKey);
        if (checked) next.push(checkKey);
        change({ ...draft, checked: next.length > 0 ? { ...others, [sectionKey]: next } : others });
      },

      editField(key, field) {
        const draft = get().noteDraft;
        if (!draft) return;
        const { [key]: _old, ...others } = draft.fields;
        change({ ...draft, fields: field === null ? others : { ...others, [key]: field } });
      },

      flushNoteDraft: () => (timer ? save() : saving),

      async finishNote(sessionId) {
        // The last keystrokes first: they are part of what went into the EHR.
        await get().flushNoteDraft();
        try {
          await api.call('notes.finish', { sessionId });
          // In the EHR: its recording is deleted, and nothing of it plays on.
          get().stopReplay();
          return true;
        } catch (error) {
          set({ noteNotice: (error as Error).message });
          return false;
        }
      },

      async unfinishNote(sessionId) {
        try {
          await api.call('notes.unfinish', { sessionId });
        } catch (error) {
          set({ noteNotice: (error as Error).message });
        }
      },

      forgetNoteDraft() {
        // An edit still waiting for its save is kept first (never lose an edit), then forgotten here.
        if (timer) void save();
        set({ noteDraft: null, noteNotice: null, noteSaveState: 'idle' });
      },
    };
  };
