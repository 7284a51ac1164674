import { useEffect, useId, useRef, useState } from 'react';
import { emptyCustomForm, type FormDraft } from '../../encounter/draft';
import { useAppStore } from '../../store/use-app-store';
import { CustomFormEditor } from './CustomFormEditor';

/**
 * Forms to fill from the visit: service templates and custom forms, each item one or the other.
 * Templates are fetched only when the clinician asks for them (the list comes from the service,
 * which may need a sign-in first).
 */
export function FormsPicker() {
  const forms = useAppStore((s) => s.draft?.forms ?? []);
  const problems = useAppStore((s) => s.draftProblems);
  const templates = useAppStore((s) => s.templates);
  const templatesError = useAppStore((s) => s.templatesError);
  const loadTemplates = useAppStore((s) => s.loadTemplates);
  const edit = useAppStore((s) => s.editDraft);
  const [loading, setLoading] = useState(false);
  const [choice, setChoice] = useState('');
  const selectId = useId();
  // Where the focus goes after an action whose control is gone or disabled once pressed (issue 37):
  // "Add a service form…" leaves the list of forms to choose from, "Add form" the form it added.
  const [focusNext, setFocusNext] = useState<'select' | number | null>(null);
  const select = useRef<HTMLSelectElement>(null);
  const items = useRef<(HTMLElement | null)[]>([]);
  useEffect(() => {
    if (focusNext === null) return;
    const target = focusNext === 'select' ? select.current : (items.current[focusNext] ?? null);
    if (!target) return;
    target.focus();
    setFocusNext(null);
  }, [focusNext, templates, forms.length]);

  const setForms = (next: FormDraft[]) => edit({ forms: next });
  const chosenTemplates = new Set(forms.flatMap((f) => (f.kind === 'template' ? [f.templateId] : [])));
  const available = (templates ?? []).filter((t) => !chosenTemplates.has(t.form_template_id));
  const titleOf = (id: string) => templates?.find((t) => t.form_template_id === id)?.title ?? id;

  return (
    <fieldset className="forms-picker">
      <legend>Forms to fill (optional)</legend>
      {forms.length === 0 && <p className="muted">No forms: the visit gives a note and a transcript.</p>}
      <ul className="form-list">
        {forms.map((form, index) => (
          <li key={index}>
            {form.kind === 'template' ? (
              <div
                className="form-item"
                tabIndex={-1}
                ref={(element) => {
                  items.current[index] = element;
                }}
              >
                <span>
                  {titleOf(form.templateId)} <span className="muted">(service form)</span>
                </span>
                <button
                  type="button"
                  className="link-button"
                  aria-label={`Remove ${titleOf(form.templateId)}`}
                  onClick={() => setForms(forms.filter((_, i) => i !== index))}
                >
                  Remove
                </button>
              </div>
            ) : (
              <CustomFormEditor
                form={form.form}
                index={index}
                onChange={(next) =>
                  setForms(forms.map((f, i) => (i === index ? { kind: 'custom', form: next } : f)))
                }
                onRemove={() => setForms(forms.filter((_, i) => i !== index))}
              />
            )}
            {problems[`forms.${index}`] && (
              <p className="problem" role="alert">
                {problems[`forms.${index}`]}
              </p>
            )}
          </li>
        ))}
      </ul>
      <div className="actions">
        {templates === null ? (
          <button
            type="button"
            className="link-button"
            disabled={loading}
            onClick={() => {
              setLoading(true);
              setFocusNext('select');
              void loadTemplates().finally(() => setLoading(false));
            }}
          >
            {loading ? 'Loading the service’s forms…' : 'Add a service form…'}
          </button>
        ) : (
          <span className="inline-field">
            <label htmlFor={selectId}>Service form</label>
            <select
              id={selectId}
              ref={select}
              value={choice}
              onChange={(event) => setChoice(event.target.value)}
            >
              <option value="">Choose a form</option>
              {available.map((t) => (
                <option key={t.form_template_id} value={t.form_template_id}>
                  {t.title}
                </option>
              ))}
            </select>
            <button
              type="button"
              disabled={!choice}
              onClick={() => {
                setForms([...forms, { kind: 'template', templateId: choice }]);
                setChoice('');
                setFocusNext(forms.length);
              }}
            >
              Add form
            </button>
          </span>
        )}
        <button
          type="button"
          className="link-button"
          onClick={() => setForms([...forms, { kind: 'custom', form: emptyCustomForm() }])}
        >
          Add a custom form
        </button>
      </div>
      {templatesError && (
        <p className="error" role="alert">
          {templatesError}
        </p>
      )}
    </fieldset>
  );
}
