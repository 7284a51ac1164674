import { formatClock } from '../results/format';
import { useAppStore } from '../store/use-app-store';
import { useNow } from './use-now';

/** The service closes a pause at 30 min; the app reconnects at 29 (core recorder timing). */
const LONG_PAUSE_S = 25 * 60;

/**
 * What a recording's state words cannot say alone: how long the clinician's pause has lasted
 * (with a word before the service's 30-minute limit), and how much audio is still on its way to
 * the service after a reconnect, as a share of the largest backlog since it started.
 */
export function RecordingDetails() {
  const pausedAt = useAppStore((s) => s.pausedAt);
  const backlogS = useAppStore((s) => Math.round((s.recorder?.backlogMs ?? 0) / 1_000));
  const sentShare = useAppStore((s) =>
    s.backlogPeakMs > 0
      ? Math.round((100 * (s.backlogPeakMs - (s.recorder?.backlogMs ?? 0))) / s.backlogPeakMs)
      : 100,
  );
  const now = useNow(pausedAt !== null);
  const pausedS = pausedAt === null ? null : Math.max(0, Math.floor((now - pausedAt) / 1_000));

  return (
    <>
      {pausedS !== null && (
        <p className="muted" data-testid="paused-for">
          Paused for {formatClock(pausedS)}
        </p>
      )}
      {pausedS !== null && pausedS >= LONG_PAUSE_S && (
        <p className="warning" role="alert" data-testid="long-pause">
          This pause is long. After 29 minutes the app closes the connection to the service; Resume reconnects
          and nothing recorded is lost.
        </p>
      )}
      {backlogS >= 2 && (
        <p className="muted" role="status" data-testid="backlog">
          Sending the backlog: {sentShare}% sent, {backlogS} s of audio to go. Recording continues.
        </p>
      )}
    </>
  );
}
