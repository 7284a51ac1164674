import { useAppStore } from '../store/use-app-store';

/** While the built-in sandbox is the service, every screen says so (notes are simulated). */
export function DemoBanner() {
  const isDemo = useAppStore((s) => s.settings?.service.kind === 'builtin-sandbox');
  if (!isDemo) return null;
  return (
    <p className="demo-banner" role="note">
      <strong>Demo mode.</strong> The built-in sandbox stands in for the documentation service. Its notes are
      simulated, not clinical documentation.
    </p>
  );
}
