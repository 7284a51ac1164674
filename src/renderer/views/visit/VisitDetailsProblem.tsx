import { useAppStore } from '../../store/use-app-store';

/**
 * Why Start did nothing: the first problem of the visit details, beside Start, for as long as it
 * holds. It is read from the draft's problems, so fixing the field takes it away at once (issue
 * 31); the field itself says the same next to it.
 */
export function VisitDetailsProblem() {
  const first = useAppStore((s) => Object.values(s.draftProblems)[0]);
  if (!first) return null;
  return (
    <p className="error" role="alert" data-testid="visit-details-problem">
      Check the visit details: {first}
    </p>
  );
}
