import { useId } from 'react';
import type { FilledField, FilledForm, TranscriptEntry } from '../../../shared/service';
import { entriesFor, evidenceText, formText, valueText } from '../../results/form-text';
import { CopyButton } from './CopyButton';
import type { Highlight } from './highlight';

interface Props {
  form: FilledForm;
  title: string;
  transcript: readonly TranscriptEntry[] | undefined;
  highlight: Highlight | null;
  onHighlight(next: Highlight): void;
  transcriptId: string | undefined;
}

/** One filled form: what the service heard for each field, with its unit and the words it heard. */
export function FormTable(props: Props) {
  const captionId = useId();
  const { form, title } = props;
  return (
    <div className="form-block">
      <div className="form-block-head">
        <CopyButton text={formText(form, title)} label={`Copy ${title}`} />
      </div>
      {/* A wide table scrolls sideways on its own; the keyboard can reach it to scroll. */}
      <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className="form-table" data-testid={`form-${form.form_id}`}>
          <caption id={captionId}>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Value</th>
              <th scope="col">Unit</th>
              <th scope="col">Evidence</th>
            </tr>
          </thead>
          <tbody>
            {form.fields.map((field) => (
              <FieldRow key={field.id} field={field} owner={`field:${form.form_id}:${field.id}`} {...props} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function FieldRow(props: Props & { field: FilledField; owner: string }) {
  const { field, owner } = props;
  const value = valueText(field.value);
  const evidence = entriesFor(field.evidence, props.transcript);
  return (
    <tr>
      <th scope="row">{field.label}</th>
      <td>
        {value === null ? (
          <>
            <span aria-hidden="true">—</span>
            <span className="visually-hidden">not mentioned</span>
          </>
        ) : (
          value
        )}
      </td>
      <td>{field.unit ?? ''}</td>
      <td>
        {evidence.length > 0 ? (
          <div className="evidence">
            <ul>
              {evidence.map((entry) => (
                <li key={entry.transcript_id}>{evidenceText(entry)}</li>
              ))}
            </ul>
            {props.transcriptId && (
              <button
                type="button"
                className="link-button toggle small"
                aria-pressed={props.highlight?.owner === owner}
                aria-label={`Show evidence for ${field.label} in the transcript`}
                aria-controls={props.transcriptId}
                onClick={() => props.onHighlight({ owner, name: field.label, ids: field.evidence ?? [] })}
              >
                Show
              </button>
            )}
          </div>
        ) : (
          <span className="visually-hidden">none</span>
        )}
      </td>
    </tr>
  );
}
