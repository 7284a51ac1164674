import { createContext, useContext } from 'react';
import type { ReplayLine } from '../../store/replay-slice';

/**
 * Play on the lines of the visit on screen (issue 38), for every list of its lines (the transcript,
 * an open flag's lines): the visit, each line's span in its recording by id, and why nothing plays
 * (`gone`). Null: no Play (not kept to play back, a form-filling visit, nothing shown).
 */
export interface VisitReplay {
  sessionId: string;
  lines: ReadonlyMap<string, ReplayLine>;
  gone?: string | undefined;
}

export const ReplayContext = createContext<VisitReplay | null>(null);

export const useVisitReplay = () => useContext(ReplayContext);
