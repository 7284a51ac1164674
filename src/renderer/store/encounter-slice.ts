import type { StateCreator } from 'zustand/vanilla';
import type { ScribeApi } from '../../shared/contract';
import { DEFAULT_SPECIALTY, type FormTemplate } from '../../shared/service';
import { templateSections } from '../../shared/note-templates';
import { checkDraft, newDraft, type EncounterDraft } from '../encounter/draft';
import type { Settings } from '../../shared/settings';
import type { AppState } from './app-store';

export interface EncounterSlice {
  /** The next visit's details; null until first needed (its specialty comes from settings). */
  draft: EncounterDraft | null;
  /** Problems by field, from the last Start that was refused before anything was sent. */
  draftProblems: Record<string, string>;
  /**
   * The clinician typed into the next visit's details since it was made (or filled from a link):
   * a visit link asks before replacing them (issue 28).
   */
  draftEdited: boolean;
  /**
   * Something of this patient's visit was typed or filled in (encounter ID, date of birth, sex,
   * consent) since the draft was made: New visit on the ready screen asks before clearing it.
   */
  patientDetailsTyped: boolean;
  /** The service's form templates, once asked for; a sentence when they could not be loaded. */
  templates: FormTemplate[] | null;
  templatesError: string | null;
  ensureDraft(): EncounterDraft;
  editDraft(patch: Partial<EncounterDraft>): void;
  /**
   * After a visit: a new id and no patient details, keeping the specialty, sections and forms (the
   * same clinician sees the next patient the same way).
   */
  nextVisit(): void;
  /**
   * New visit on the ready screen (issue 31): what was typed goes as after a visit (nextVisit),
   * and so does what the last refused Start said about it.
   */
  clearVisitDetails(): void;
  loadTemplates(): Promise<void>;
  /** The draft checked as main will check it; its problems are kept in draftProblems. */
  checkedEncounter(): ReturnType<typeof checkDraft>;
}

export const createEncounterSlice =
  (api: ScribeApi, now: () => Date = () => new Date()): StateCreator<AppState, [], [], EncounterSlice> =>
  (set, get) => {
    /** The draft checked as main will check it, with the consent the settings ask for. */
    function check(draft: EncounterDraft): ReturnType<typeof checkDraft> {
      const settings = get().settings;
      return checkDraft(draft, {
        now: now(),
        consent: settings ? { mode: settings.consent, wording: settings.consentWording } : undefined,
        demo: isDemo(settings),
        video: settings?.visitAudio === 'telehealth',
      });
    }

    return {
      draft: null,
      draftProblems: {},
      draftEdited: false,
      patientDetailsTyped: false,
      templates: null,
      templatesError: null,

      ensureDraft() {
        const existing = get().draft;
        if (existing) return existing;
        const settings = get().settings;
        const draft = {
          ...newDraft(now(), settings?.providerSpecialty ?? DEFAULT_SPECIALTY, isDemo(settings)),
          // The clinician's template, remembered between launches.
          ...(settings ? { sections: templateSections(settings.noteTemplate, settings.noteSections) } : {}),
        };
        set({ draft });
        return draft;
      },

      editDraft(patch) {
        const draft = { ...get().ensureDraft(), ...patch };
        // An ID typed, pasted or set by a link is the EHR's, even where the demo made one up first.
        if ('encounterId' in patch) delete draft.madeUpForDemo;
        // The problems a refused Start named for the edited fields are checked again at once (issue
        // 31): each goes away as soon as it is fixed, and stays, as worded, while it is not (no new
        // alert at every keystroke). A field with no problem gets one only at the next Start, never
        // while it is being typed.
        const edited = Object.keys(patch).map((key) => FIELD_PATHS[key as keyof EncounterDraft] ?? key);
        const stored = Object.entries(get().draftProblems);
        const isEdited = (path: string) => edited.some((e) => path.startsWith(e));
        const recheck = stored.some(([path]) => isEdited(path)) ? check(draft) : undefined;
        const stillThere: Record<string, string> = recheck && !recheck.ok ? recheck.problems : {};
        const draftProblems = Object.fromEntries(
          stored.flatMap(([path, message]) => (!isEdited(path) || stillThere[path] ? [[path, message]] : [])),
        );
        set({
          draft,
          draftProblems,
          draftEdited: true,
          patientDetailsTyped: get().patientDetailsTyped || PATIENT_KEYS.some((key) => key in patch),
        });
      },

      nextVisit() {
        const previous = get().ensureDraft();
        const settings = get().settings;
        // A visit link's template was for its visit: the next one has the clinician's own again.
        const sections =
          previous.template && settings
            ? templateSections(settings.noteTemplate, settings.noteSections)
            : previous.sections;
        set({
          draft: {
            ...newDraft(now(), previous.specialty, isDemo(settings)),
            sections,
            forms: previous.forms,
          },
          draftProblems: {},
          draftEdited: false,
          patientDetailsTyped: false,
        });
      },

      clearVisitDetails() {
        get().nextVisit();
        set({ recordingError: null });
      },

      async loadTemplates() {
        try {
          set({ templates: (await api.call('forms.templates')).templates, templatesError: null });
        } catch (error) {
          set({ templatesError: (error as Error).message });
        }
      },

      checkedEncounter() {
        const checked = check(get().ensureDraft());
        set({ draftProblems: checked.ok ? {} : checked.problems });
        return checked;
      },
    };
  };

/** The built-in demo (no EHR: its visits may have a made-up encounter ID). */
export function isDemo(settings: Settings | null): boolean {
  return settings?.service.kind === 'builtin-sandbox';
}

/** The details that belong to one patient's visit, not to the clinician's way of working. */
const PATIENT_KEYS: (keyof EncounterDraft)[] = ['encounterId', 'dateOfBirth', 'sex', 'consent'];

/** Draft keys → the problem paths they own (problems use the request's field paths). */
const FIELD_PATHS: Partial<Record<keyof EncounterDraft, string>> = {
  encounterId: 'encounterId',
  specialty: 'context.provider_specialty',
  sections: 'context.sections',
  dateOfBirth: 'context.patient_info.date_of_birth',
  sex: 'context.patient_info.sex',
  forms: 'forms',
  consent: 'consent',
};
