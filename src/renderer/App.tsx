import { useEffect, useState } from 'react';
import { applyTheme } from './settings/theme';
import { useAppStore } from './store/use-app-store';
import { DemoBanner } from './views/DemoBanner';
import { HistoryView } from './views/HistoryView';
import { LaunchAddressNeeded } from './views/LaunchAddressNeeded';
import { RecordView } from './views/RecordView';
import { ResultsView } from './views/ResultsView';
import { SetupView } from './views/setup/SetupView';
import { SignInPanel } from './views/SignInPanel';
import { StartupNotices } from './views/StartupNotices';
import { StatusBar } from './views/StatusBar';

export function App() {
  const firstRunComplete = useAppStore((s) => s.settings?.firstRunComplete ?? false);
  const theme = useAppStore((s) => s.settings?.theme ?? 'system');
  const refused = useAppStore((s) => s.link === 'refused');
  const [showSettings, setShowSettings] = useState(false);
  const setup = !firstRunComplete || showSettings;
  useEffect(() => applyTheme(document.documentElement, theme), [theme]);
  if (refused) return <LaunchAddressNeeded />;
  return (
    <div className="app">
      <header className="app-header">
        <h1>Ambient Scribe</h1>
        {firstRunComplete && (
          <button type="button" className="link-button" onClick={() => setShowSettings(!showSettings)}>
            {showSettings ? 'Back to the visit' : 'Settings'}
          </button>
        )}
      </header>
      <StartupNotices />
      <DemoBanner />
      <main className="app-main">
        <div className="stack">
          {/* Once set up, where sign-in stands is always in view. */}
          {firstRunComplete && <SignInPanel />}
          {setup ? (
            <SetupView />
          ) : (
            <>
              <RecordView />
              <ResultsView />
              <HistoryView />
            </>
          )}
        </div>
      </main>
      <StatusBar />
    </div>
  );
}
