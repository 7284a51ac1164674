import {
  customFormProblems,
  emptyField,
  FIELD_TYPES,
  type CustomFieldDraft,
  type CustomFormDraft,
} from '../../encounter/draft';
import { useAppStore } from '../../store/use-app-store';
import { Field } from '../Field';

/**
 * A partner-defined form: an id, a title and its fields (id, label, type, unit, and the choices of
 * an enum). Problems are shown as the form is edited, each naming the field by its number.
 */
export function CustomFormEditor(props: {
  form: CustomFormDraft;
  index: number;
  onChange(form: CustomFormDraft): void;
  onRemove(): void;
}) {
  const { form, onChange } = props;
  const problems = customFormProblems(form);
  // An untouched row is not an error yet: problems show once something was typed in the form.
  const touched = form.formId !== '' || form.title !== '' || form.fields.some((f) => f.id || f.label);
  // A refused Start names the problems of an untouched form too.
  const refused = useAppStore((s) => s.draftProblems);
  const problem = (key: string) =>
    (touched ? problems[key] : undefined) ?? refused[`forms.${props.index}.${key}`];
  const setField = (index: number, patch: Partial<CustomFieldDraft>) =>
    onChange({ ...form, fields: form.fields.map((f, i) => (i === index ? { ...f, ...patch } : f)) });
  const name = form.title || `Custom form ${props.index + 1}`;

  return (
    <fieldset className="custom-form">
      <legend>{name}</legend>
      <div className="encounter-row">
        <Field label="Form ID" problem={problem('formId')}>
          {(control) => (
            <input
              {...control}
              value={form.formId}
              onChange={(e) => onChange({ ...form, formId: e.target.value })}
            />
          )}
        </Field>
        <Field label="Form title" problem={problem('title')}>
          {(control) => (
            <input
              {...control}
              value={form.title}
              onChange={(e) => onChange({ ...form, title: e.target.value })}
            />
          )}
        </Field>
      </div>
      {form.fields.map((field, i) => (
        <fieldset key={i} className="custom-field">
          <legend>{`Field ${i + 1}`}</legend>
          <div className="encounter-row">
            <Field label="ID" problem={problem(`fields.${i}.id`)}>
              {(control) => (
                <input {...control} value={field.id} onChange={(e) => setField(i, { id: e.target.value })} />
              )}
            </Field>
            <Field label="Label" problem={problem(`fields.${i}.label`)}>
              {(control) => (
                <input
                  {...control}
                  value={field.label}
                  onChange={(e) => setField(i, { label: e.target.value })}
                />
              )}
            </Field>
            <Field label="Type">
              {(control) => (
                <select
                  {...control}
                  value={field.type}
                  onChange={(e) => setField(i, { type: e.target.value as CustomFieldDraft['type'] })}
                >
                  {FIELD_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {type}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Unit (optional)" problem={problem(`fields.${i}.unit`)}>
              {(control) => (
                <input
                  {...control}
                  value={field.unit}
                  onChange={(e) => setField(i, { unit: e.target.value })}
                />
              )}
            </Field>
            {field.type === 'enum' && (
              <Field label="Choices" hint="Separated by commas." problem={problem(`fields.${i}.options`)}>
                {(control) => (
                  <input
                    {...control}
                    value={field.options}
                    onChange={(e) => setField(i, { options: e.target.value })}
                  />
                )}
              </Field>
            )}
          </div>
          {form.fields.length > 1 && (
            <button
              type="button"
              className="link-button"
              aria-label={`Remove field ${i + 1} of ${name}`}
              onClick={() => onChange({ ...form, fields: form.fields.filter((_, j) => j !== i) })}
            >
              Remove field
            </button>
          )}
        </fieldset>
      ))}
      {problem('fields') && (
        <p className="problem" role="alert">
          {problem('fields')}
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          className="link-button"
          onClick={() => onChange({ ...form, fields: [...form.fields, emptyField()] })}
        >
          Add a field
        </button>
        <button type="button" className="link-button" aria-label={`Remove ${name}`} onClick={props.onRemove}>
          Remove form
        </button>
      </div>
    </fieldset>
  );
}
