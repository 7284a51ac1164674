import { NoPlay, PlayButton } from './PlayButton';
import { playLabel } from './replay-lines';
import { useVisitReplay } from './replay-context';
import './replay.css';

/** Play for one line of the visit on screen, where it can be played; nothing where Play is off. */
export function LinePlay({ id, speaker, time }: { id: string; speaker: string | undefined; time: string }) {
  const replay = useVisitReplay();
  if (!replay || replay.gone) return null;
  const line = replay.lines.get(id);
  return line ? (
    <PlayButton
      sessionId={replay.sessionId}
      line={line}
      label={playLabel(speaker, time)}
      where={replay.where ?? 'transcript'}
    />
  ) : (
    <NoPlay />
  );
}
