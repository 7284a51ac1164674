import { useId, useRef, useState, type FormEvent } from 'react';
import type { Settings } from '../../../shared/settings';
import { useAppStore } from '../../store/use-app-store';
import { AppearanceFields } from './AppearanceFields';
import { NotificationFields } from './NotificationFields';
import { PartnerFields } from './PartnerFields';
import { RecordingFields } from './RecordingFields';
import { ServiceFields } from './ServiceFields';
import { draftFrom, patchFrom, type Draft } from './setup-draft';

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
      <ServiceFields draft={draft} update={update} problems={problems} />

      <PartnerFields
        draft={draft}
        update={update}
        problems={problems}
        tokenInput={tokenInput}
        onTokenInput={() => setEdited(true)}
      />

      <RecordingFields draft={draft} update={update} problems={problems} />

      <NotificationFields draft={draft} update={update} problems={problems} hintId={`${headingId}-notify`} />

      <AppearanceFields draft={draft} update={update} problems={problems} />

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
