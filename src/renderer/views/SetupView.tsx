import { useId, useState, type FormEvent } from 'react';
import { AUTH_MODELS, type AuthModel, type Settings } from '../../shared/settings';
import { useAppStore } from '../store/use-app-store';
import { Field } from './Field';

const AUTH_MODEL_WORDS: Record<AuthModel, string> = {
  standard: 'Standard: clinicians sign in with the organisation’s identity provider',
  bearer: 'Bearer: one partner token for all providers',
  single_auth_token: 'Single auth token: partner token plus provider ID on every call',
};

interface Draft {
  serviceKind: Settings['service']['kind'];
  baseUrl: string;
  partnerId: string;
  authModel: AuthModel;
  providerId: string;
  audioProcessing: Settings['audioProcessing'];
}

const PROCESSING_WORDS: Record<keyof Settings['audioProcessing'], string> = {
  echoCancellation: 'Echo cancellation',
  noiseSuppression: 'Noise suppression',
  autoGainControl: 'Automatic gain',
};

function draftFrom(settings: Settings): Draft {
  return {
    serviceKind: settings.service.kind,
    baseUrl: settings.service.kind === 'url' ? settings.service.baseUrl : '',
    partnerId: settings.partnerId,
    authModel: settings.authModel,
    providerId: settings.providerId,
    audioProcessing: settings.audioProcessing,
  };
}

/** First run: which service to use and who the partner and provider are. */
export function SetupView() {
  const settings = useAppStore((s) => s.settings);
  if (!settings) return <p aria-busy="true">Loading settings…</p>;
  return <SetupForm settings={settings} />;
}

function SetupForm({ settings }: { settings: Settings }) {
  const [draft, setDraft] = useState(() => draftFrom(settings));
  const saveSettings = useAppStore((s) => s.saveSettings);
  const saveState = useAppStore((s) => s.saveState);
  const problems = useAppStore((s) => s.fieldProblems);
  const saveError = useAppStore((s) => s.saveError);
  const headingId = useId();
  // "Saved." describes the stored values, so it goes away as soon as the form differs from them.
  const [edited, setEdited] = useState(false);

  const update = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setEdited(true);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setEdited(false);
    void saveSettings({
      service:
        draft.serviceKind === 'url'
          ? { kind: 'url', baseUrl: draft.baseUrl.trim() }
          : { kind: 'builtin-sandbox' },
      partnerId: draft.partnerId,
      authModel: draft.authModel,
      providerId: draft.providerId,
      audioProcessing: draft.audioProcessing,
      firstRunComplete: true,
    });
  };

  return (
    <form className="card" aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h2 id={headingId}>Set up the documentation service</h2>
      <fieldset>
        <legend>Service</legend>
        <label className="choice">
          <input
            type="radio"
            name="service"
            checked={draft.serviceKind === 'builtin-sandbox'}
            onChange={() => update({ serviceKind: 'builtin-sandbox' })}
          />
          Built-in sandbox (demo, no account)
        </label>
        <label className="choice">
          <input
            type="radio"
            name="service"
            checked={draft.serviceKind === 'url'}
            onChange={() => update({ serviceKind: 'url' })}
          />
          A documentation service at this address
        </label>
        {draft.serviceKind === 'url' && (
          <Field label="Service URL" problem={problems['service.baseUrl'] ?? problems.service}>
            {(props) => (
              <input
                {...props}
                type="url"
                inputMode="url"
                placeholder="https://scribe.example.org"
                value={draft.baseUrl}
                onChange={(e) => update({ baseUrl: e.target.value })}
              />
            )}
          </Field>
        )}
      </fieldset>

      <Field label="Partner ID" hint="Issued by the service at onboarding." problem={problems.partnerId}>
        {(props) => (
          <input {...props} value={draft.partnerId} onChange={(e) => update({ partnerId: e.target.value })} />
        )}
      </Field>

      <Field label="Sign-in model" problem={problems.authModel}>
        {(props) => (
          <select
            {...props}
            value={draft.authModel}
            onChange={(e) => update({ authModel: e.target.value as AuthModel })}
          >
            {AUTH_MODELS.map((model) => (
              <option key={model} value={model}>
                {AUTH_MODEL_WORDS[model]}
              </option>
            ))}
          </select>
        )}
      </Field>

      <Field
        label="Provider ID"
        hint={
          draft.authModel === 'standard'
            ? 'Not needed: your identity comes from your sign-in.'
            : 'Your ID in the partner’s system, as agreed at onboarding.'
        }
        problem={problems.providerId}
      >
        {(props) => (
          <input
            {...props}
            value={draft.providerId}
            onChange={(e) => update({ providerId: e.target.value })}
          />
        )}
      </Field>

      <fieldset>
        <legend>Microphone processing</legend>
        <p className="hint">
          Off unless your room needs it: the service wants the room as it is, and these can remove quiet
          speech.
        </p>
        {(Object.keys(PROCESSING_WORDS) as (keyof Settings['audioProcessing'])[]).map((key) => (
          <label className="choice" key={key}>
            <input
              type="checkbox"
              checked={draft.audioProcessing[key]}
              onChange={(e) =>
                update({ audioProcessing: { ...draft.audioProcessing, [key]: e.target.checked } })
              }
            />
            {PROCESSING_WORDS[key]}
          </label>
        ))}
      </fieldset>

      <div className="actions">
        <button type="submit" disabled={saveState === 'saving'}>
          Save
        </button>
        <span role="status" className="save-state" data-testid="save-state">
          {saveState === 'saved' && !edited && 'Saved.'}
          {saveState === 'failed' && (saveError ?? 'Not saved: fix the fields marked above.')}
        </span>
      </div>
    </form>
  );
}
