import { useAppStore } from '../../store/use-app-store';
import { Field } from '../Field';
import { useLockedSetting } from '../locked-settings';
import type { DraftFieldsProps } from './setup-draft';

/**
 * Which documentation service: the built-in sandbox, or a real one at its address. `urlOnly`: the
 * first run's "Connect to your organisation's service", where the demo is the other door.
 */
export function ServiceFields({
  draft,
  update,
  problems,
  urlOnly,
}: DraftFieldsProps & { urlOnly?: boolean }) {
  const isUrl = draft.serviceKind === 'url';
  // The organisation set the service (the address is then read-only), or does not offer the demo.
  const locked = useLockedSetting('service');
  const demoAllowed = useAppStore((s) => s.appInfo?.managed?.demoAllowed ?? true);
  return (
    <fieldset>
      <legend>Service</legend>
      {!urlOnly && !locked && demoAllowed && (
        <>
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
        </>
      )}
      {isUrl && (
        <Field
          label="Service URL"
          problem={problems['service.baseUrl'] ?? problems.service}
          setting="service"
        >
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
  );
}
