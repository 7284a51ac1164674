import { useEffect } from 'react';
import { localIsoDate } from '../../shared/local-date';
import { describePatient } from '../encounter/patient';
import { useAppStore } from '../store/use-app-store';

/**
 * "Female · 68 years · born 9 April 1957": the patient of the visit on screen, for the recording's
 * and the note's headers. Known in the window since Start, or asked of main, which keeps it sealed
 * with the unfinished note (issue 31): a note opened again from the rail, after a reload or a
 * restart, still names its patient. Undefined when none was given (or the visit is finished).
 */
export function useVisitPatientLine(sessionId: string | undefined): string | undefined {
  const patient = useAppStore((s) => (s.patient && s.patient.sessionId === sessionId ? s.patient : null));
  const loadPatient = useAppStore((s) => s.loadPatient);
  useEffect(() => {
    if (sessionId) void loadPatient(sessionId);
  }, [sessionId, loadPatient]);
  return patient ? describePatient(patient, localIsoDate(new Date())) : undefined;
}
