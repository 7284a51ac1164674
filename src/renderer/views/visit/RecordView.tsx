import { RECORDING_STATES } from '../../store/recording-states';
import { useAppStore } from '../../store/use-app-store';
import { ReadyPane } from './ReadyPane';
import { RecordingPane } from './RecordingPane';
import './visit.css';

/** The next visit, ready to start; or the one being recorded. */
export function RecordView() {
  const recording = useAppStore((s) => RECORDING_STATES.has(s.recorder?.state ?? 'idle'));
  return recording ? <RecordingPane /> : <ReadyPane />;
}
