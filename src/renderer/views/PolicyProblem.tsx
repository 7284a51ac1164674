import { useAppStore } from '../store/use-app-store';

/**
 * The organisation's policy file broke a rule, so none of it was applied and the app stops here
 * (issue 18): for the IT admin, the file and each key with its rule; for the clinician, who to ask.
 */
export function PolicyProblem() {
  const problem = useAppStore((s) => s.appInfo?.policyProblem);
  if (!problem) return null;
  return (
    <main className="app-main">
      <section
        className="card policy-problem"
        aria-labelledby="policy-problem-heading"
        data-testid="policy-problem"
      >
        <h2 id="policy-problem-heading">This computer’s Ambient Scribe settings need fixing</h2>
        <p>
          The settings your organisation installed could not be used, so the app does not start. Tell your IT
          team; this screen says what to fix.
        </p>
        <p>
          File: <code data-testid="policy-file">{problem.file}</code>
        </p>
        <ul data-testid="policy-problems">
          {problem.problems.map((p) => (
            <li key={`${p.key}:${p.rule}`}>
              <code>{p.key}</code> {p.rule}
            </li>
          ))}
        </ul>
        <p className="muted">
          After the file is fixed, start the app again. docs/deployment.md lists every key.
        </p>
      </section>
    </main>
  );
}
