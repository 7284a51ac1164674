import { useState } from 'react';
import { useAppStore } from '../../store/use-app-store';
import { useWhileShown } from '../screen/use-while-shown';
import './status-bar.css';

/**
 * Whether the app is working, in a clinician's words (issue 31): "the app core" is the developers'.
 * data-link keeps the state for tests and support.
 */
const LINK_WORDS = {
  connecting: 'Starting…',
  connected: 'Working',
  lost: 'Reconnecting… What was recorded is kept. If you restarted browser mode, open the new address it printed.',
  refused: 'Not connected: this window needs the launch address browser mode printed.',
} as const;

export function StatusBar() {
  // The heartbeat is drawn only while About is open: folded away, a new count every 2 s was a
  // frame the window painted for nobody (issue 40).
  const [aboutOpen, setAboutOpen] = useState(false);
  const info = useAppStore((s) => s.appInfo);
  const infoError = useAppStore((s) => s.infoError);
  const link = useAppStore((s) => s.link);
  // Every 2 s: read only while About is open and the window is seen, so nothing else re-renders.
  const beat = useWhileShown((s) => (aboutOpen ? s.lastHeartbeat?.seq : undefined));

  return (
    <footer className="status-bar">
      <span data-testid="link-state" data-link={link} role="status">
        {LINK_WORDS[link]}
      </span>
      {/* Diagnostics are for IT and support, folded away from the clinician (issue 17). */}
      <details className="about" onToggle={(event) => setAboutOpen(event.currentTarget.open)}>
        <summary>About</summary>
        <span data-testid="app-info">
          {info
            ? `${info.name} ${info.version} · ${info.mode === 'electron' ? 'desktop app' : 'browser mode'}`
            : (infoError ?? 'Loading…')}
        </span>
        {/* Not a live region: a screen reader should not announce every beat. */}
        {link === 'connected' && beat !== undefined && <span data-testid="heartbeat">heartbeat {beat}</span>}
        {info && <span data-testid="data-directory">App data: {info.dataDirectory}</span>}
      </details>
    </footer>
  );
}
