import { useCallback, useEffect, useState } from 'react';
import { applyTheme } from './settings/theme';
import { RECORDING_STATES } from './store/recording-states';
import { useAppStore } from './store/use-app-store';
import { HistoryView } from './views/rail/HistoryView';
import { useIdleLock } from './views/idle-lock';
import { LaunchAddressNeeded } from './views/LaunchAddressNeeded';
import { LockScreen } from './views/lock/LockScreen';
import { NewVisit } from './views/rail/NewVisit';
import { PinSetup } from './views/PinSetup';
import { PolicyProblem } from './views/PolicyProblem';
import { RecordView } from './views/visit/RecordView';
import { ResultsView } from './views/results/ResultsView';
import { SettingsView } from './views/setup/SettingsView';
import { StartupNotices } from './views/StartupNotices';
import { StatusBar } from './views/status-bar/StatusBar';
import { TopBar } from './views/top-bar/TopBar';
import { useOpenLinkedVisits, VisitLinkNotices } from './views/VisitLinkNotices';

/**
 * The clinician's workspace (issue 17): a compact top bar (demo badge, who is signed in, a menu
 * with Settings and Sign out); a rail with New visit and this computer's visits; and one pane
 * that shows one visit at a time: ready or recording, or, once a visit has ended or is opened
 * from the rail, its note. The first run (two doors) and Settings take the whole window.
 */
export function App() {
  const firstRunComplete = useAppStore((s) => s.settings?.firstRunComplete ?? false);
  const theme = useAppStore((s) => s.settings?.theme ?? 'system');
  const refused = useAppStore((s) => s.link === 'refused');
  const [showSettings, setShowSettings] = useState(false);
  const locked = useAppStore((s) => s.locked);
  // Signed in, with no PIN of their own here yet: nothing of a patient until they choose one.
  const pinNeeded = useAppStore(
    (s) =>
      s.privacy?.pinNeeded === true &&
      s.auth?.signedIn === true &&
      !RECORDING_STATES.has(s.recorder?.state ?? 'idle'),
  );
  const recording = useAppStore((s) => RECORDING_STATES.has(s.recorder?.state ?? 'idle'));
  const idleMinutes = useAppStore((s) => s.settings?.idleLockMinutes ?? 10);
  const lockForIdle = useAppStore((s) => s.lockForIdle);
  useIdleLock(idleMinutes * 60_000, recording || !firstRunComplete, lockForIdle);
  // Main locked while a visit recorded (another clinician's sign-in, say): the lock screen once it ends.
  const heldLock = useAppStore((s) => s.privacy?.locked === true && !s.locked);
  const receivePrivacy = useAppStore((s) => s.receivePrivacy);
  const privacy = useAppStore((s) => s.privacy);
  useEffect(() => {
    if (heldLock && !recording && privacy) receivePrivacy(privacy);
  }, [heldLock, recording, privacy, receivePrivacy]);
  const setup = !firstRunComplete || showSettings;
  useEffect(() => applyTheme(document.documentElement, theme), [theme]);
  const policyBroken = useAppStore((s) => s.appInfo?.policyProblem !== undefined);
  // The EHR's visit links open their visit in the pane (issue 18), once there is a workspace.
  const leaveSettings = useCallback(() => setShowSettings(false), []);
  useOpenLinkedVisits({
    enabled: firstRunComplete && !locked && !pinNeeded && !policyBroken,
    settingsOpen: showSettings,
    leaveSettings,
  });
  if (refused) return <LaunchAddressNeeded />;
  return (
    <div className="app">
      <TopBar firstRunComplete={firstRunComplete} onSettings={() => setShowSettings(true)} />
      <StartupNotices />
      {!locked && !policyBroken && (
        <VisitLinkNotices settingsOpen={showSettings} leaveSettings={leaveSettings} />
      )}
      {policyBroken ? (
        <PolicyProblem />
      ) : locked ? (
        <LockScreen />
      ) : pinNeeded && !setup ? (
        <PinSetup />
      ) : setup ? (
        <main className="app-main">
          <div className="stack">
            <SettingsView onDone={() => setShowSettings(false)} />
          </div>
        </main>
      ) : (
        <div className="workspace">
          <aside className="rail" aria-label="Visits">
            <NewVisitInRail />
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

/** New visit (NewVisit.tsx), told whether the pane shows a note. */
function NewVisitInRail() {
  return <NewVisit showsNote={usePaneShowsNote()} />;
}
