import { useAppStore } from '../../store/use-app-store';

/**
 * While the built-in sandbox is the service, the top bar says so in a small badge: its notes are
 * simulated. The whole sentence is read with the badge by screen readers and shown on hover.
 */
export function DemoBadge() {
  // Not while a broken policy stops the app: nothing runs, the demo included.
  // Nor on the first run, before anyone chose the demo: the built-in sandbox is only the default.
  const isDemo = useAppStore(
    (s) =>
      s.settings?.firstRunComplete === true &&
      s.settings.service.kind === 'builtin-sandbox' &&
      s.appInfo?.policyProblem === undefined,
  );
  if (!isDemo) return null;
  const explanation =
    'The built-in sandbox stands in for the documentation service and signs you in by itself. Its notes are simulated, not clinical documentation.';
  return (
    <p className="demo-badge" role="note" title={explanation}>
      Demo mode
      {/* Read with the badge; shown on hover. */}
      <span className="visually-hidden">{`: ${explanation}`}</span>
    </p>
  );
}
