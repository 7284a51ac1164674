import { useId, useRef, useState, type FormEvent } from 'react';
import type { FilledField, FilledForm, FormTemplate } from '../../../shared/service';
import { fieldType, type DraftKey, type FeedbackDraft } from '../../results/feedback';
import { valueText, withUnit } from '../../results/form-text';
import { useAppStore } from '../../store/use-app-store';
import './feedback.css';

const RATINGS = [
  [1, 'Poor'],
  [2, 'Fair'],
  [3, 'Good'],
  [4, 'Very good'],
  [5, 'Excellent'],
] as const;

interface Props {
  form: FilledForm;
  title: string;
  template: FormTemplate | undefined;
}

/**
 * Tells the service how well it filled one form: a rating (required: the service takes no feedback
 * without one), a comment, the values it got wrong. It is a message to the service and says so
 * (issue 31): nothing here changes the form or what its Copy gives; the table's Edit does that.
 */
export function FormFeedback({ form, title, template }: Props) {
  const id = useId();
  const status = useAppStore((s) => s.feedback[form.form_id]);
  const send = useAppStore((s) => s.sendFormFeedback);
  const [draft, setDraft] = useState<FeedbackDraft>({});
  const problemId = `${id}-problem`;
  const invalid = (key: DraftKey) => status?.state === 'failed' && status.key === key;
  const describe = (key: DraftKey) => (invalid(key) ? problemId : undefined);
  const setCorrection = (fieldId: string, value: string) =>
    setDraft({ ...draft, corrections: { ...draft.corrections, [fieldId]: value } });

  const rating = useRef<HTMLFieldSetElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A missing rating is above the fold by the time Send is pressed: the keyboard goes to it, and
    // its sentence stands under it (below), so what is missing is what is in view.
    void send(form.form_id, draft).then((sent) => {
      if (!sent && draft.rating === undefined) rating.current?.querySelector('input')?.focus();
    });
  };
  const problem = status?.state === 'failed' && (
    <p id={problemId} className="problem" role="alert">
      {status.message}
    </p>
  );

  return (
    <form
      className="feedback"
      aria-labelledby={`${id}-heading`}
      aria-describedby={`${id}-about`}
      onSubmit={submit}
      noValidate
    >
      {/* The fold's summary above says it in the same words: the heading is for screen readers. */}
      <h4 id={`${id}-heading`} className="visually-hidden">
        Tell the service how it filled {title}
      </h4>
      <p id={`${id}-about`} className="hint feedback-about" data-testid="feedback-about">
        This goes to the service, to help it fill forms better. It does not change this form or what its Copy
        gives: to change a value, use <strong>Edit</strong> in the table above.
      </p>
      <fieldset
        ref={rating}
        role="radiogroup"
        className="rating"
        aria-required="true"
        aria-invalid={invalid('rating') || undefined}
        aria-describedby={describe('rating')}
      >
        <legend>
          Rating <span className="required-mark">(required)</span>
        </legend>
        {RATINGS.map(([value, words]) => (
          <label key={value} className="choice">
            <input
              type="radio"
              name={`${id}-rating`}
              value={value}
              checked={draft.rating === value}
              onChange={() => setDraft({ ...draft, rating: value })}
            />
            {value} — {words}
          </label>
        ))}
      </fieldset>
      {invalid('rating') && problem}
      <div className="field">
        <label htmlFor={`${id}-comment`}>Comment (optional)</label>
        <textarea
          id={`${id}-comment`}
          rows={2}
          value={draft.comment ?? ''}
          aria-invalid={invalid('comment') || undefined}
          aria-describedby={describe('comment')}
          onChange={(event) => setDraft({ ...draft, comment: event.target.value })}
        />
      </div>
      <details className="corrections">
        <summary>Values the service got wrong (optional)</summary>
        <p className="hint">
          Tell the service the right value for what it got wrong or missed. This does not change the form: use
          Edit in the table for that.
        </p>
        <div className="corrections-grid">
          {form.fields.map((field) => (
            <Correction
              key={field.id}
              id={`${id}-fix-${field.id}`}
              field={field}
              template={template}
              value={draft.corrections?.[field.id] ?? ''}
              invalid={invalid(`correction:${field.id}`)}
              describedBy={describe(`correction:${field.id}`)}
              onChange={(value) => setCorrection(field.id, value)}
            />
          ))}
        </div>
      </details>
      <div className="actions">
        <button type="submit" disabled={status?.state === 'sending'}>
          Send to the service
        </button>
        <span role="status" className="copy-state" data-testid="feedback-state">
          {status?.state === 'sending' && 'Sending…'}
          {status?.state === 'sent' && 'Sent to the service. It does not change this form.'}
        </span>
      </div>
      {status?.state === 'failed' && status.key !== 'rating' && problem}
    </form>
  );
}

function Correction(props: {
  id: string;
  field: FilledField;
  template: FormTemplate | undefined;
  value: string;
  invalid: boolean;
  describedBy: string | undefined;
  onChange(value: string): void;
}) {
  const { field } = props;
  const type = fieldType(field, props.template);
  const options =
    type === 'boolean'
      ? ['Yes', 'No']
      : type === 'enum'
        ? (props.template?.fields.find((f) => f.id === field.id)?.options ?? [])
        : [];
  const current = valueText(field.value);
  const hintId = `${props.id}-now`;
  const control = {
    id: props.id,
    value: props.value,
    'aria-invalid': props.invalid || undefined,
    'aria-describedby': [hintId, props.describedBy].filter(Boolean).join(' '),
  };
  return (
    <div className="field">
      <label htmlFor={props.id}>
        {field.label}
        {field.unit ? ` (${field.unit})` : ''}
      </label>
      {options.length > 0 ? (
        <select {...control} onChange={(event) => props.onChange(event.target.value)}>
          <option value="">No correction</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...control}
          type="text"
          inputMode={type === 'number' ? 'decimal' : undefined}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
      <span id={hintId} className="hint">
        Filled in: {current === null ? 'not mentioned' : withUnit(current, field.unit)}
      </span>
    </div>
  );
}
