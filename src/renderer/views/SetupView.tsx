import { useId, useRef, useState, type FormEvent } from 'react';
import { SPECIALTIES } from '../../shared/service';
import { AUTH_MODELS, type AuthModel, type Settings, type SettingsPatch } from '../../shared/settings';
import {
  SENSITIVITIES,
  SENSITIVITY_WORDS,
  sensitivityOf,
  withSensitivity,
  type Sensitivity,
} from '../settings/voice-sensitivity';
import { useAppStore } from '../store/use-app-store';
import { Field } from './Field';
import { PartnerTokenField } from './PartnerTokenField';

const AUTH_MODEL_WORDS: Record<AuthModel, string> = {
  standard: 'Standard: clinicians sign in with the organisation’s identity provider',
  bearer: 'Bearer: one partner token for all providers',
  single_auth_token: 'Single auth token: partner token plus provider ID on every call',
};

const THEME_WORDS: Record<Settings['theme'], string> = {
  system: 'System (follows this computer)',
  light: 'Light',
  dark: 'Dark',
};

const PROCESSING_WORDS: Record<keyof Settings['audioProcessing'], string> = {
  echoCancellation: 'Echo cancellation',
  noiseSuppression: 'Noise suppression',
  autoGainControl: 'Automatic gain',
};

interface Draft {
  serviceKind: Settings['service']['kind'];
  baseUrl: string;
  partnerId: string;
  authModel: AuthModel;
  providerId: string;
  providerName: string;
  providerOrgId: string;
  providerSpecialty: Settings['providerSpecialty'];
  oidcIssuer: string;
  oidcClientId: string;
  notificationReceiver: boolean;
  theme: Settings['theme'];
  audioProcessing: Settings['audioProcessing'];
  /** A preset, or 'custom' for thresholds tuned by hand (kept as they are). */
  sensitivity: Sensitivity | 'custom';
  /** As typed, in seconds. */
  autoPauseSeconds: string;
  /** As typed, in days. */
  retentionDays: string;
}

function draftFrom(settings: Settings): Draft {
  return {
    serviceKind: settings.service.kind,
    baseUrl: settings.service.kind === 'url' ? settings.service.baseUrl : '',
    partnerId: settings.partnerId,
    authModel: settings.authModel,
    providerId: settings.providerId,
    providerName: settings.providerName,
    providerOrgId: settings.providerOrgId,
    providerSpecialty: settings.providerSpecialty,
    oidcIssuer: settings.oidcIssuer,
    oidcClientId: settings.oidcClientId,
    notificationReceiver: settings.notificationReceiver,
    theme: settings.theme,
    audioProcessing: settings.audioProcessing,
    sensitivity: sensitivityOf(settings.voiceDetection) ?? 'custom',
    autoPauseSeconds: String(settings.autoPauseAfterMs / 1000),
    retentionDays: String(settings.audioRetentionDays),
  };
}

function patchFrom(draft: Draft, settings: Settings): SettingsPatch {
  const seconds = draft.autoPauseSeconds.trim() === '' ? Number.NaN : Number(draft.autoPauseSeconds);
  return {
    service:
      draft.serviceKind === 'url'
        ? { kind: 'url', baseUrl: draft.baseUrl.trim() }
        : { kind: 'builtin-sandbox' },
    partnerId: draft.partnerId,
    authModel: draft.authModel,
    providerId: draft.providerId,
    providerName: draft.providerName,
    providerOrgId: draft.providerOrgId,
    providerSpecialty: draft.providerSpecialty,
    oidcIssuer: draft.oidcIssuer.trim(),
    oidcClientId: draft.oidcClientId,
    notificationReceiver: draft.notificationReceiver,
    theme: draft.theme,
    audioProcessing: draft.audioProcessing,
    voiceDetection:
      draft.sensitivity === 'custom'
        ? settings.voiceDetection
        : withSensitivity(settings.voiceDetection, draft.sensitivity),
    // Whole ms: 2.5 s is 2500 ms, never 2499.9999.
    autoPauseAfterMs: Math.round(seconds * 1000),
    audioRetentionDays: draft.retentionDays.trim() === '' ? Number.NaN : Number(draft.retentionDays),
    firstRunComplete: true,
  };
}

/** The first problem of a group of fields (voiceDetection.*), for the one control that sets them. */
function problemUnder(problems: Record<string, string>, prefix: string): string | undefined {
  return Object.entries(problems).find(([field]) => field === prefix || field.startsWith(`${prefix}.`))?.[1];
}

/** First run and Settings: the service, the partner and provider, recording, notifications, theme. */
export function SetupView() {
  const settings = useAppStore((s) => s.settings);
  if (!settings) return <p aria-busy="true">Loading settings…</p>;
  return <SetupForm settings={settings} />;
}

function SetupForm({ settings }: { settings: Settings }) {
  const [draft, setDraft] = useState(() => draftFrom(settings));
  const saveSettings = useAppStore((s) => s.saveSettings);
  const checkSettings = useAppStore((s) => s.checkSettings);
  const checkPartnerToken = useAppStore((s) => s.checkPartnerToken);
  const savePartnerToken = useAppStore((s) => s.savePartnerToken);
  const saveState = useAppStore((s) => s.saveState);
  const tokenState = useAppStore((s) => s.partnerTokenState);
  const problems = useAppStore((s) => s.fieldProblems);
  const saveError = useAppStore((s) => s.saveError);
  const headingId = useId();
  // The partner token is read from its field on Save and never kept in React state.
  const tokenInput = useRef<HTMLInputElement>(null);
  // "Saved." describes the stored values, so it goes away as soon as the form differs from them.
  const [edited, setEdited] = useState(false);

  const isUrl = draft.serviceKind === 'url';
  const standard = draft.authModel === 'standard';

  const update = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setEdited(true);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setEdited(false);
    const patch = patchFrom(draft, settings);
    const token = tokenInput.current?.value.trim() ?? '';
    // Every field is checked before anything is sent, so all mistakes are named at once.
    const settingsOk = checkSettings(patch);
    const tokenOk = checkPartnerToken(token);
    if (!settingsOk || !tokenOk) return;
    // The token first: if main cannot store it, the clinician is still here to see why.
    if (token !== '') {
      if (!(await savePartnerToken(token))) return;
      if (tokenInput.current) tokenInput.current.value = '';
    }
    await saveSettings(patch);
  };

  const failed = saveState === 'failed' || tokenState === 'failed';
  return (
    <form className="card" aria-labelledby={headingId} onSubmit={(e) => void submit(e)} noValidate>
      <h2 id={headingId}>{settings.firstRunComplete ? 'Settings' : 'Set up the documentation service'}</h2>
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
            checked={isUrl}
            onChange={() => update({ serviceKind: 'url' })}
          />
          A documentation service at this address
        </label>
        {isUrl && (
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

      <fieldset>
        <legend>Partner and provider</legend>
        {isUrl ? (
          <Field label="Partner ID" hint="Issued by the service at onboarding." problem={problems.partnerId}>
            {(props) => (
              <input
                {...props}
                value={draft.partnerId}
                onChange={(e) => update({ partnerId: e.target.value })}
              />
            )}
          </Field>
        ) : (
          <p className="hint field">The sandbox signs in as its demo partner for the sign-in model below.</p>
        )}

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

        {standard && !isUrl && (
          <p className="hint field">The sandbox’s own sign-in page is used; it asks only for a user name.</p>
        )}
        {standard && isUrl && (
          <>
            <Field
              label="Identity provider (issuer) URL"
              hint="Your organisation’s OpenID Connect issuer, from your IT admin."
              problem={problems.oidcIssuer}
            >
              {(props) => (
                <input
                  {...props}
                  type="url"
                  inputMode="url"
                  placeholder="https://login.example.org"
                  value={draft.oidcIssuer}
                  onChange={(e) => update({ oidcIssuer: e.target.value })}
                />
              )}
            </Field>
            <Field
              label="Client ID at the identity provider"
              hint="This app’s client ID there, from your IT admin."
              problem={problems.oidcClientId}
            >
              {(props) => (
                <input
                  {...props}
                  value={draft.oidcClientId}
                  onChange={(e) => update({ oidcClientId: e.target.value })}
                />
              )}
            </Field>
          </>
        )}
        {!standard && isUrl && <PartnerTokenField inputRef={tokenInput} onInput={() => setEdited(true)} />}

        <Field
          label="Provider ID"
          hint={
            standard
              ? 'Not needed: your identity comes from your sign-in.'
              : isUrl
                ? 'Your ID in the partner’s system, as agreed at onboarding.'
                : 'Optional in the sandbox (demo-clinician when empty).'
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
        <Field
          label="Provider name"
          hint="Sent once, when the service registers you."
          problem={problems.providerName}
        >
          {(props) => (
            <input
              {...props}
              autoComplete="name"
              value={draft.providerName}
              onChange={(e) => update({ providerName: e.target.value })}
            />
          )}
        </Field>
        <Field label="Organisation ID" problem={problems.providerOrgId}>
          {(props) => (
            <input
              {...props}
              value={draft.providerOrgId}
              onChange={(e) => update({ providerOrgId: e.target.value })}
            />
          )}
        </Field>
        <Field label="Specialty" problem={problems.providerSpecialty}>
          {(props) => (
            <select
              {...props}
              value={draft.providerSpecialty}
              onChange={(e) => update({ providerSpecialty: e.target.value as Settings['providerSpecialty'] })}
            >
              {SPECIALTIES.map((specialty) => (
                <option key={specialty} value={specialty}>
                  {specialty
                    .replaceAll('_', ' ')
                    .toLowerCase()
                    .replace(/^./, (c) => c.toUpperCase())}
                </option>
              ))}
            </select>
          )}
        </Field>
      </fieldset>

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

      <fieldset>
        <legend>Pausing on silence</legend>
        <Field
          label="Voice detection sensitivity"
          hint="How readily a sound counts as speech. Recording pauses itself when nobody speaks and resumes on speech."
          problem={problemUnder(problems, 'voiceDetection')}
        >
          {(props) => (
            <select
              {...props}
              value={draft.sensitivity}
              onChange={(e) => update({ sensitivity: e.target.value as Draft['sensitivity'] })}
            >
              {SENSITIVITIES.map((s) => (
                <option key={s} value={s}>
                  {SENSITIVITY_WORDS[s]}
                </option>
              ))}
              {draft.sensitivity === 'custom' && (
                <option value="custom">Custom (tuned by your IT admin)</option>
              )}
            </select>
          )}
        </Field>
        <Field
          label="Auto-pause after (seconds without speech)"
          hint="2 to 20 seconds. Shorter sends less silence; longer keeps a thinking pause in one stretch."
          problem={problems.autoPauseAfterMs}
        >
          {(props) => (
            <input
              {...props}
              className="short-input"
              type="number"
              inputMode="decimal"
              min={2}
              max={20}
              step={1}
              value={draft.autoPauseSeconds}
              onChange={(e) => update({ autoPauseSeconds: e.target.value })}
            />
          )}
        </Field>
        <Field
          label="Keep unfinished visits' audio for (days)"
          hint="1 to 30 days. Audio that has not reached the service is kept this long, encrypted, then deleted. Audio of a visit with its note is deleted 10 minutes after the note arrives."
          problem={problems.audioRetentionDays}
        >
          {(props) => (
            <input
              {...props}
              className="short-input"
              type="number"
              inputMode="numeric"
              min={1}
              max={30}
              step={1}
              value={draft.retentionDays}
              onChange={(e) => update({ retentionDays: e.target.value })}
            />
          )}
        </Field>
      </fieldset>

      <fieldset>
        <legend>Notifications</legend>
        <label className="choice">
          <input
            type="checkbox"
            role="switch"
            checked={draft.notificationReceiver}
            aria-describedby={`${headingId}-notify`}
            onChange={(e) => update({ notificationReceiver: e.target.checked })}
          />
          Notification receiver
        </label>
        <p className="hint" id={`${headingId}-notify`}>
          {isUrl
            ? 'Listens on this computer for the service’s “note ready” message, so results show as soon as they are done. Your service’s notification address is set at onboarding, so ask your IT admin before turning this on. The app keeps checking either way.'
            : 'Listens on this computer for the service’s “note ready” message, so results show as soon as they are done. The app keeps checking either way.'}
        </p>
        {problems.notificationReceiver && (
          <p className="problem" role="alert">
            {problems.notificationReceiver}
          </p>
        )}
      </fieldset>

      <Field label="Theme" problem={problems.theme}>
        {(props) => (
          <select
            {...props}
            value={draft.theme}
            onChange={(e) => update({ theme: e.target.value as Settings['theme'] })}
          >
            {(Object.keys(THEME_WORDS) as Settings['theme'][]).map((theme) => (
              <option key={theme} value={theme}>
                {THEME_WORDS[theme]}
              </option>
            ))}
          </select>
        )}
      </Field>

      <div className="actions">
        <button type="submit" disabled={saveState === 'saving' || tokenState === 'saving'}>
          Save
        </button>
        <span role="status" className="save-state" data-testid="save-state">
          {saveState === 'saved' && !edited && 'Saved.'}
          {failed && (saveError ?? 'Not saved: fix the fields marked above.')}
        </span>
      </div>
    </form>
  );
}
