import { useState } from 'react';
import { useAppStore } from './store/use-app-store';
import { DemoBanner } from './views/DemoBanner';
import { HistoryView } from './views/HistoryView';
import { RecordView } from './views/RecordView';
import { ResultsView } from './views/ResultsView';
import { SetupView } from './views/SetupView';
import { StatusBar } from './views/StatusBar';

export function App() {
  const firstRunComplete = useAppStore((s) => s.settings?.firstRunComplete ?? false);
  const [showSettings, setShowSettings] = useState(false);
  const setup = !firstRunComplete || showSettings;
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
      <DemoBanner />
      <main className="app-main">
        {setup ? (
          <SetupView />
        ) : (
          <div className="stack">
            <RecordView />
            <ResultsView />
            <HistoryView />
          </div>
        )}
      </main>
      <StatusBar />
    </div>
  );
}
