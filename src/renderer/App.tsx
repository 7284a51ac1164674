import { useEffect, useState } from 'react';
import { applyTheme } from './settings/theme';
import { RECORDING_STATES } from './store/recording-states';
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

/**
 * The clinician's workspace (issue 17): a compact top bar; a rail with New visit, sign-in and this
 * computer's visits; and one pane that shows one visit at a time: ready or recording, or, once a
 * visit has ended or is opened from the rail, its note. First run and Settings take the pane.
 */
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
        <DemoBanner />
        {firstRunComplete && (
          <button type="button" className="link-button" onClick={() => setShowSettings(!showSettings)}>
            {showSettings ? 'Back to the visit' : 'Settings'}
          </button>
        )}
      </header>
      <StartupNotices />
      {setup ? (
        <main className="app-main">
          <div className="stack">
            {firstRunComplete && <SignInPanel />}
            <SetupView />
          </div>
        </main>
      ) : (
        <div className="workspace">
          <aside className="rail" aria-label="Visits">
            <NewVisitButton />
            <SignInPanel />
            <HistoryView />
          </aside>
          <main className="pane">
            <VisitPane />
          </main>
        </div>
      )}
      <StatusBar />
    </div>
  );
}

/**
 * One visit: while one records, that one; otherwise the note of the visit that just ended (or
 * was opened from the rail) until New visit; otherwise the next visit, ready to start.
 */
function VisitPane() {
  return usePaneShowsNote() ? <ResultsView /> : <RecordView />;
}

/** The pane shows a visit's note: one ended or was opened from the rail, and none records now. */
function usePaneShowsNote(): boolean {
  return useAppStore(
    (s) =>
      !RECORDING_STATES.has(s.recorder?.state ?? 'idle') && (s.endedAt !== null || s.resultsFor !== null),
  );
}

/** Leaves the note on screen for the next visit's form; never while a visit records. */
function NewVisitButton() {
  const showsNote = usePaneShowsNote();
  const clearResults = useAppStore((s) => s.clearResults);
  return (
    <button
      type="button"
      className="new-visit"
      disabled={!showsNote}
      onClick={clearResults}
      data-testid="new-visit"
    >
      New visit
    </button>
  );
}
