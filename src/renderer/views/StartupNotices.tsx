import { useState } from 'react';
import { useAppStore } from '../store/use-app-store';

/**
 * What the main process says the clinician must know about this start (app.info's notices: a
 * damaged settings file set aside, say), above everything else until dismissed.
 */
export function StartupNotices() {
  const notices = useAppStore((s) => s.appInfo?.notices);
  const [dismissed, setDismissed] = useState(false);
  if (!notices?.length || dismissed) return null;
  return (
    <div className="warning startup-notices" role="alert" data-testid="startup-notice">
      {notices.map((notice) => (
        <p key={notice}>{notice}</p>
      ))}
      <button type="button" className="link-button" onClick={() => setDismissed(true)}>
        Dismiss
      </button>
    </div>
  );
}
