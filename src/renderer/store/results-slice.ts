import type { StateCreator } from 'zustand/vanilla';
import { ContractError, type EventPayload, type Results, type ScribeApi } from '../../shared/contract';
import type { FormTemplate } from '../../shared/service';
import type { Patient } from '../encounter/patient';
import { checkFeedback, type DraftKey, type FeedbackDraft } from '../results/feedback';
import type { AppState } from './app-store';

/** One form's feedback: on its way, taken by the service, or refused with a sentence. */
export interface FeedbackState {
  state: 'sending' | 'sent' | 'failed';
  message?: string;
  /** The control the sentence is about, so the form can mark it. */
  key?: DraftKey;
}

export interface ResultsSlice {
  /** The service's work on the last visit, as main's polling reports it. */
  progress: EventPayload<'results.progress'> | null;
  /** When that report arrived (renderer clock), so the wait can advance between reports. */
  progressAt: number | null;
  /** When the clinician pressed End on this screen: the wait is shown from then on. */
  endedAt: number | null;
  /**
   * The visit whose results the card shows. Reports on other visits (one still finishing while
   * the next records, one from an earlier run finishing by itself) are History's, not the card's.
   */
  resultsFor: string | null;
  results: Results | null;
  resultsError: string | null;
  /** The service's form templates: titles for the tables and field types for corrections. */
  formTemplates: FormTemplate[];
  /** Feedback per form, by form_id. */
  feedback: Record<string, FeedbackState>;
  /**
   * The patient details of the visit on screen, for its recording and note headers: from Start in
   * this window, or from main, which keeps them sealed with the unfinished note (issue 31). Never
   * in History, and gone from the window with the results: New visit, Sign out, the idle lock.
   */
  patient: (Patient & { sessionId: string }) | null;
  /** The visit on screen names its patient: main has the details it was recorded with, if any. */
  loadPatient(sessionId: string): Promise<void>;
  receiveProgress(progress: EventPayload<'results.progress'>): void;
  /** The visit ended here (or was finished from History): its results are on their way. */
  expectResults(sessionId: string): void;
  loadResults(sessionId: string): Promise<void>;
  /** Checks and sends one form's feedback; true when the service took it. */
  sendFormFeedback(formId: string, draft: FeedbackDraft): Promise<boolean>;
  /** A new visit starts (or the clinician records again): the last one's results leave the screen. */
  clearResults(): void;
}

const EMPTY = {
  progress: null,
  progressAt: null,
  endedAt: null,
  resultsFor: null,
  results: null,
  resultsError: null,
  feedback: {},
  patient: null,
} as const;

export const createResultsSlice =
  (api: ScribeApi, now: () => number = Date.now): StateCreator<AppState, [], [], ResultsSlice> =>
  (set, get) => {
    const setFeedback = (formId: string, state: FeedbackState) =>
      set({ feedback: { ...get().feedback, [formId]: state } });

    async function loadTemplates(): Promise<void> {
      if (get().formTemplates.length > 0) return;
      try {
        set({ formTemplates: (await api.call('forms.templates')).templates });
      } catch {
        // Without templates the tables show form ids and corrections take their type from the values.
      }
    }

    return {
      ...EMPTY,
      formTemplates: [],
      receiveProgress(progress) {
        if (progress.sessionId !== get().resultsFor) return;
        set({ progress, progressAt: now() });
        // Main polls (or hears the webhook); the renderer fetches once, when it is over.
        if (progress.done) void get().loadResults(progress.sessionId);
      },
      expectResults: (sessionId) => set({ endedAt: now(), resultsFor: sessionId }),
      async loadPatient(sessionId) {
        if (get().patient?.sessionId === sessionId) return;
        let patient: Patient | undefined;
        try {
          ({ patient } = await api.call('notes.patient', { sessionId }));
        } catch {
          return; // signed out, locked, or main unreachable: the header has no patient line
        }
        // Still this visit on screen (not left, locked or signed out meanwhile).
        const onScreen = get().resultsFor === sessionId || get().recorder?.sessionId === sessionId;
        if (patient && onScreen && get().patient?.sessionId !== sessionId)
          set({ patient: { sessionId, ...patient } });
      },
      async loadResults(sessionId) {
        set({ resultsFor: sessionId });
        try {
          const results = await api.call('results.get', { sessionId });
          set({ results, resultsError: null });
          if (results.forms?.length) await loadTemplates();
        } catch (error) {
          set({ resultsError: (error as Error).message });
        }
      },
      async sendFormFeedback(formId, draft) {
        const results = get().results;
        const form = results?.forms?.find((f) => f.form_id === formId);
        // protocol: Form filling — feedback belongs to the form-filling session, which for an
        // ambient visit is its second session.
        const sessionId =
          results?.formSessionId ?? (results?.kind === 'form' ? results.sessionId : undefined);
        if (!form || !sessionId) {
          setFeedback(formId, {
            state: 'failed',
            message: 'This form is no longer shown; nothing was sent.',
          });
          return false;
        }
        const templateId = form.form_template_id ?? form.form_id;
        const template = get().formTemplates.find((t) => t.form_template_id === templateId);
        const checked = checkFeedback({ sessionId, form, template }, draft);
        if (!checked.ok) {
          setFeedback(formId, {
            state: 'failed',
            message: checked.message,
            ...(checked.key ? { key: checked.key } : {}),
          });
          return false;
        }
        setFeedback(formId, { state: 'sending' });
        try {
          await api.call('forms.feedback', checked.request);
          setFeedback(formId, { state: 'sent' });
          return true;
        } catch (error) {
          const field = error instanceof ContractError ? error.fields[0]?.field : undefined;
          const key =
            field === 'feedback.rating' ? 'rating' : field === 'feedback.comment' ? 'comment' : undefined;
          setFeedback(formId, {
            state: 'failed',
            message: (error as Error).message,
            ...(key ? { key } : {}),
          });
          return false;
        }
      },
      clearResults: () => {
        // The note's edits leave the window with the note (they are kept sealed by main), and
        // nothing of its recording plays on (sign-out and the idle lock come through here too).
        get().forgetNoteDraft();
        get().stopReplay();
        set(EMPTY);
      },
    };
  };
