import { createContext, useContext } from 'react';
import { useAppStore } from '../../store/use-app-store';
import type { ReplayLine, ReplaySurface } from '../../store/replay-slice';

/**
 * Play on the lines of the visit on screen (issue 38), for every list of its lines (the transcript,
 * an open flag's lines): the visit, each line's span in its recording by id, and why nothing plays
 * (`gone`), and which list this is (`where`: a Play that plays nothing says why in that list). Null:
 * no Play (not kept to play back, a form-filling visit, nothing shown).
 */
export interface VisitReplay {
  sessionId: string;
  lines: ReadonlyMap<string, ReplayLine>;
  gone?: string | undefined;
  where?: ReplaySurface;
}

export const ReplayContext = createContext<VisitReplay | null>(null);

export const useVisitReplay = () => useContext(ReplayContext);

/** Why the last Play pressed in this list (`where`) of this visit played nothing; null when it did. */
export function useReplayProblem(sessionId: string | undefined, where: ReplaySurface): string | null {
  return useAppStore((s) => {
    const problem = s.replayProblem;
    return problem && problem.sessionId === sessionId && problem.where === where ? problem.message : null;
  });
}
