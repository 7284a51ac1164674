import type { ReplayLine, ReplaySurface } from '../../store/replay-slice';
import { useAppStore } from '../../store/use-app-store';

interface Props {
  sessionId: string;
  line: ReplayLine;
  /** The speaker and time as shown: the button is `Play <label>`, `Pause <label>` while it plays. */
  label: string;
  /** The list it is in: a Play that plays nothing says why there. */
  where: ReplaySurface;
}

/** Plays one line of the visit's own recording (issue 38); pressed again (or Space) it pauses. */
export function PlayButton({ sessionId, line, label, where }: Props) {
  const state = useAppStore((s) =>
    s.replaying?.sessionId === sessionId && s.replaying.lineId === line.id
      ? s.replaying.paused
        ? 'paused'
        : 'playing'
      : 'idle',
  );
  const playLine = useAppStore((s) => s.playLine);
  const playing = state === 'playing';
  return (
    <button
      type="button"
      className="link-button small play-button"
      aria-label={`${playing ? 'Pause' : 'Play'} ${label}`}
      data-state={state}
      data-testid="play-line"
      onClick={() => void playLine(sessionId, line, where)}
    >
      <span aria-hidden="true">{playing ? '❚❚' : '▶'}</span>
    </button>
  );
}

/** In place of Play on a line the recording has no time for: said quietly, to a screen reader too. */
export function NoPlay() {
  return (
    <span className="play-none" title="This line has no time in the recording" data-testid="play-none">
      <span className="visually-hidden">No recording time for this line</span>
    </span>
  );
}
