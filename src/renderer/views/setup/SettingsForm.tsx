import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { Settings, SettingsPatch } from '../../../shared/settings';
import { useAppStore } from '../../store/use-app-store';
import { AppearanceFields } from './AppearanceFields';
import { NotificationFields } from './NotificationFields';
import { ReplayAudioField } from './ReplayAudioField';
import { PartnerFields } from './PartnerFields';
import { NoteCheckField } from './NoteCheckField';
import { ConsentFields, IdleLockField, RecordingFields, RetentionField } from './RecordingFields';
import { ServiceFields } from './ServiceFields';
import { draftFrom, pagePatchFrom, type Draft, type SettingsPage } from './setup-draft';

/**
 * One settings page as a form with its own Save: the clinician's (recording and theme) or the
 * service's (for IT: address, partner, sign-in, provider, notifications, retention). Every field
 * is checked before anything is sent, so all mistakes are named at once.
 */
export function SettingsForm(props: {
  page: SettingsPage;
  settings: Settings;
  heading: string;
  /** First run: the service page is for a real service, so the demo choice is not offered. */
  firstRun?: boolean;
  /** Extra controls beside Save (Back, on the first run). */
  actions?: ReactNode;
}) {
  const { page, settings } = props;
  const [draft, setDraft] = useState(() =>
    props.firstRun ? { ...draftFrom(settings), serviceKind: 'url' as const } : draftFrom(settings),
  );
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
  // Save is disabled while it saves, which takes the focus from it (issue 37: the next key was
  // lost): the focus goes to what it produced, "Saved." or why not.
  const saveStatus = useRef<HTMLSpanElement>(null);
  // "Saved." describes the stored values, so it goes away as soon as the form differs from them.
  const [edited, setEdited] = useState(false);
  // And it answers this form's Save: a Save of another page (or the first run's) says nothing here.
  const [savedHere, setSavedHere] = useState(false);

  const update = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setEdited(true);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setEdited(false);
    setSavedHere(true);
    const patch: SettingsPatch = pagePatchFrom(page, draft, settings);
    const token = tokenInput.current?.value.trim() ?? '';
    const settingsOk = checkSettings(patch, { partnerTokenTyped: token !== '' });
    const tokenOk = checkPartnerToken(token);
    if (!settingsOk || !tokenOk) return;
    // The token first: if main cannot store it, the person is still here to see why.
    if (token !== '') {
      const stored = await savePartnerToken(token, patch.service);
      if (!stored) return saveStatus.current?.focus();
      if (tokenInput.current) tokenInput.current.value = '';
    }
    await saveSettings(patch);
    saveStatus.current?.focus();
  };

  const failed = saveState === 'failed' || tokenState === 'failed';
  const fieldProps = { draft, update, problems };
  return (
    <form
      className="card settings-form"
      aria-labelledby={headingId}
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <h2 id={headingId}>{props.heading}</h2>
      {page === 'service' ? (
        <>
          {!props.firstRun && <ServiceFields {...fieldProps} />}
          {props.firstRun && <ServiceFields {...fieldProps} urlOnly />}
          <PartnerFields {...fieldProps} tokenInput={tokenInput} onTokenInput={() => setEdited(true)} />
          <NotificationFields {...fieldProps} hintId={`${headingId}-notify`} />
          <fieldset>
            <legend>Audio on this computer</legend>
            <RetentionField {...fieldProps} />
            <ReplayAudioField {...fieldProps} hintId={`${headingId}-replay`} />
          </fieldset>
        </>
      ) : (
        <>
          <RecordingFields {...fieldProps} />
          <ConsentFields {...fieldProps} />
          <fieldset>
            <legend>The note</legend>
            <NoteCheckField {...fieldProps} />
          </fieldset>
          <fieldset>
            <legend>Privacy and appearance</legend>
            <IdleLockField {...fieldProps} />
            <AppearanceFields {...fieldProps} />
          </fieldset>
        </>
      )}

      <div className="actions">
        <button type="submit" disabled={saveState === 'saving' || tokenState === 'saving'}>
          Save
        </button>
        {props.actions}
        <span role="status" className="save-state" data-testid="save-state" tabIndex={-1} ref={saveStatus}>
          {savedHere && saveState === 'saved' && !edited && 'Saved.'}
          {savedHere && failed && (saveError ?? 'Not saved: fix the fields marked above.')}
        </span>
      </div>
    </form>
  );
}
