import { useEffect, useId, useRef, useState } from 'react';
import type { Settings } from '../../../shared/settings';
import { useAppStore } from '../../store/use-app-store';
import { SettingsForm } from './SettingsForm';

/**
 * The first launch, with two doors (issue 17): the demo in one click, no fields (it signs in by
 * itself), or the organisation's service with its partner settings, all checked together.
 * Everything for the clinician (microphone, sensitivity, theme) keeps its default until Settings.
 */
export function FirstRunView({ settings }: { settings: Settings }) {
  // The organisation may not offer the demo: then its service is the only door.
  const demoAllowed = useAppStore((s) => s.appInfo?.managed?.demoAllowed ?? true);
  const [door, setDoor] = useState<'choose' | 'service'>(demoAllowed ? 'choose' : 'service');
  const saveSettings = useAppStore((s) => s.saveSettings);
  const saveError = useAppStore((s) => s.saveError);
  const headingId = useId();
  const connect = useRef<HTMLButtonElement>(null);
  const cameBack = useRef(false);
  // Back from the service form: the focus returns to the door it came from.
  useEffect(() => {
    if (door === 'choose' && cameBack.current) connect.current?.focus();
  }, [door]);

  if (door === 'service') {
    return (
      <SettingsForm
        page="service"
        settings={settings}
        heading="Connect to your organisation’s service"
        firstRun
        actions={
          demoAllowed && (
            <button
              type="button"
              className="link-button"
              onClick={() => {
                cameBack.current = true;
                setDoor('choose');
              }}
            >
              Back
            </button>
          )
        }
      />
    );
  }
  return (
    <section className="first-run" aria-labelledby={headingId}>
      <h2 id={headingId}>Welcome to Ambient Scribe</h2>
      <p className="lead">
        It listens to the visit and writes the note, the transcript and any forms, ready to paste into your
        EHR.
      </p>
      <div className="doors">
        <div className="card door">
          <h3>Try it now</h3>
          <p>
            A documentation service built into the app writes simulated notes. No account and nothing to set
            up.
          </p>
          <button
            type="button"
            className="primary-large"
            onClick={() =>
              void saveSettings({
                service: { kind: 'builtin-sandbox' },
                authModel: 'bearer',
                firstRunComplete: true,
              })
            }
          >
            Try the demo
          </button>
        </div>
        <div className="card door">
          <h3>Use it at your clinic</h3>
          <p>You need the service address, partner ID and sign-in details from your IT team.</p>
          <button type="button" className="link-button" ref={connect} onClick={() => setDoor('service')}>
            Connect to your organisation’s service
          </button>
        </div>
      </div>
      {saveError && (
        <p className="error" role="alert">
          {saveError}
        </p>
      )}
    </section>
  );
}
