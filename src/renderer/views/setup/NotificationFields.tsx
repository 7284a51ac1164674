import { useLockedSetting } from '../locked-settings';
import type { DraftFieldsProps } from './setup-draft';

/** The notification receiver, with a hint that fits the chosen service. */
export function NotificationFields({
  draft,
  update,
  problems,
  hintId,
}: DraftFieldsProps & { hintId: string }) {
  const isUrl = draft.serviceKind === 'url';
  const locked = useLockedSetting('notificationReceiver');
  return (
    <fieldset>
      <legend>Notifications</legend>
      <label className="choice">
        <input
          type="checkbox"
          role="switch"
          checked={draft.notificationReceiver}
          aria-describedby={hintId}
          disabled={locked}
          onChange={(e) => update({ notificationReceiver: e.target.checked })}
        />
        Notification receiver
      </label>
      <p className="hint" id={hintId}>
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
  );
}
