import { useAppStore } from '../store/use-app-store';

/**
 * While the built-in sandbox is the service, the top bar says so in a small badge: its notes are
 * simulated. The whole sentence is read with the badge by screen readers and shown on hover.
 */
export function DemoBadge() {
  const isDemo = useAppStore((s) => s.settings?.service.kind === 'builtin-sandbox');
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
