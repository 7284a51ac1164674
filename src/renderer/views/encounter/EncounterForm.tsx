import { useEffect, useId, useState } from 'react';
import {
  NOTE_TEMPLATE_IDS,
  templateName,
  templateSections,
  type NoteTemplateId,
} from '../../../shared/note-templates';
import { SPECIALTIES, STANDARD_SECTIONS, type SectionName } from '../../../shared/service';
import { dateInWords, numericExample, readDateOfBirth } from '../../encounter/date-of-birth';
import { localIsoDate } from '../../../shared/local-date';
import { SEX_CHOICES, typedEncounterId, type EncounterDraft } from '../../encounter/draft';
import { readEncounterId, sentAsHint } from '../../../shared/encounter-id';
import { isDemo } from '../../store/encounter-slice';
import { useAppStore } from '../../store/use-app-store';
import { Field } from '../Field';
import { FormsPicker } from './FormsPicker';
import './encounter.css';

/** "FAMILY_MEDICINE" → "Family medicine". */
export const specialtyName = (code: string) =>
  code.charAt(0) + code.slice(1).toLowerCase().replaceAll('_', ' ');

/**
 * The next visit's details. Everything has a usable default, so a clinician in a hurry presses
 * Start; the note's shape (specialty, sections) and forms sit behind one disclosure.
 */
export function EncounterForm() {
  const draft = useAppStore((s) => s.draft);
  const problems = useAppStore((s) => s.draftProblems);
  const ensureDraft = useAppStore((s) => s.ensureDraft);
  const edit = useAppStore((s) => s.editDraft);
  const settingsLoaded = useAppStore((s) => s.settings !== null);
  const settingsTemplate = useAppStore((s) => s.settings?.noteTemplate);
  const demo = useAppStore((s) => isDemo(s.settings));
  const saveSettings = useAppStore((s) => s.saveSettings);
  const sectionsId = useId();
  // A date being typed is judged once the field is left (or at Start); the date understood shows at once.
  const [birthLeft, setBirthLeft] = useState(false);
  useEffect(() => {
    if (settingsLoaded) ensureDraft();
  }, [settingsLoaded, ensureDraft]);
  if (!draft) return null;

  // Taken as the EHR prints it, checked as typed; what is sent is said when it differs (issue 31).
  // Empty until typed or linked, except in the demo, whose made-up ID says it is the demo's.
  const typedId = typedEncounterId(draft, demo);
  const id = readEncounterId(typedId);
  const idProblem = (typedId && id.kind === 'problem' ? id.problem : undefined) ?? problems.encounterId;
  const idHint =
    draft.madeUpForDemo && demo
      ? 'Made up for the demo. A real visit takes the ID your EHR shows.'
      : id.kind === 'id' && id.changed
        ? sentAsHint(id.sent)
        : 'As printed in your EHR.';
  const set =
    <K extends keyof EncounterDraft>(key: K) =>
    (value: EncounterDraft[K]) =>
      edit({ [key]: value });
  const template = draft.template ?? settingsTemplate ?? 'standard';
  const templateHint = draft.sections
    .map((name) => STANDARD_SECTIONS.find((section) => section.name === name)?.title ?? name)
    .join(', ');
  const summary = [
    templateName(template),
    specialtyName(draft.specialty),
    template === 'custom'
      ? `${draft.sections.length} note section${draft.sections.length === 1 ? '' : 's'}`
      : undefined,
    draft.forms.length ? `${draft.forms.length} form${draft.forms.length === 1 ? '' : 's'}` : 'no forms',
  ]
    .filter(Boolean)
    .join(' · ');
  const birth = readDateOfBirth(draft.dateOfBirth, localIsoDate(new Date()));
  const noteProblem = problems['context.sections'] ?? problems['context.provider_specialty'];
  const formsProblem = Object.keys(problems).some((key) => key.startsWith('forms'));

  return (
    <fieldset className="encounter">
      <legend className="visually-hidden">Visit details</legend>
      <div className="encounter-row">
        <Field label="Encounter ID" hint={idHint} problem={idProblem}>
          {(control) => (
            <input
              {...control}
              value={typedId}
              autoComplete="off"
              spellCheck={false}
              // Room for the dashes and spaces an EHR prints; the 255 letters and digits the
              // service takes are checked on what is left.
              maxLength={1000}
              onChange={(event) => set('encounterId')(event.target.value)}
            />
          )}
        </Field>
        {/* A text field, not type="date": a date picker shows the locale's order, mm/dd or dd/mm,
            which is how birth dates get swapped. What was understood shows in words instead. */}
        <Field
          label="Date of birth"
          hint={
            birth.kind === 'date'
              ? `Understood as ${dateInWords(birth.iso)}`
              : `For example 9 Apr 1961 or ${numericExample(undefined)}`
          }
          problem={
            (birthLeft && birth.kind === 'problem' ? birth.problem : undefined) ??
            problems['context.patient_info.date_of_birth']
          }
        >
          {(control) => (
            <input
              {...control}
              value={draft.dateOfBirth}
              autoComplete="off"
              maxLength={40}
              onChange={(event) => {
                setBirthLeft(false);
                set('dateOfBirth')(event.target.value);
              }}
              onBlur={() => setBirthLeft(true)}
            />
          )}
        </Field>
        <Field label="Sex" problem={problems['context.patient_info.sex']}>
          {(control) => (
            <select
              {...control}
              value={draft.sex}
              onChange={(event) => set('sex')(event.target.value as EncounterDraft['sex'])}
            >
              {SEX_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <details className="encounter-more" open={Boolean(noteProblem) || formsProblem || undefined}>
        <summary>
          Note and forms{' '}
          <span className="muted" data-testid="note-summary">
            ({summary})
          </span>
        </summary>
        <Field label="Specialty" problem={problems['context.provider_specialty']}>
          {(control) => (
            <select
              {...control}
              value={draft.specialty}
              onChange={(event) => set('specialty')(event.target.value as EncounterDraft['specialty'])}
            >
              {SPECIALTIES.map((code) => (
                <option key={code} value={code}>
                  {specialtyName(code)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Note template" hint={template === 'custom' ? undefined : templateHint}>
          {(control) => (
            <select
              {...control}
              value={template}
              onChange={(event) => {
                const id = event.target.value as NoteTemplateId;
                // The clinician's choice replaces a link's template, for this visit and the next.
                edit({
                  template: undefined,
                  ...(id !== 'custom' ? { sections: templateSections(id, []) } : {}),
                });
                // The next visits, and the next launch, start with this template.
                void saveSettings(
                  id === 'custom' && draft.sections.length > 0
                    ? { noteTemplate: id, noteSections: draft.sections as SectionName[] }
                    : { noteTemplate: id },
                );
              }}
            >
              {NOTE_TEMPLATE_IDS.map((id) => (
                <option key={id} value={id}>
                  {templateName(id)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {template === 'custom' && (
          <fieldset
            className="checkbox-grid"
            aria-describedby={problems['context.sections'] ? `${sectionsId}-problem` : undefined}
          >
            <legend>Note sections</legend>
            {STANDARD_SECTIONS.map((section) => (
              <label key={section.name} className="checkbox">
                <input
                  type="checkbox"
                  checked={draft.sections.includes(section.name)}
                  onChange={(event) => {
                    // Kept in the standard order whatever the clicking order.
                    const sections = STANDARD_SECTIONS.map((s) => s.name).filter((name) =>
                      name === section.name ? event.target.checked : draft.sections.includes(name),
                    );
                    set('sections')(sections);
                    // Remembered for the next launch; an empty list is named at Start, not saved.
                    if (sections.length > 0) void saveSettings({ noteSections: sections });
                  }}
                />
                {section.title}
              </label>
            ))}
            {problems['context.sections'] && (
              <p id={`${sectionsId}-problem`} className="problem" role="alert">
                {problems['context.sections']}
              </p>
            )}
          </fieldset>
        )}
        <FormsPicker />
      </details>
    </fieldset>
  );
}
