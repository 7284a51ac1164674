// The checked-in list of electronegativity findings accepted with a reason, and the verdict on a
// scan against it: a finding of medium severity or above passes only when an entry names its
// check and file; an entry that names no finding is stale and fails too, so the list stays true.
import { readFileSync } from 'node:fs';
import { SEVERITIES } from './electronegativity-scan.mjs';

export const THRESHOLD = 'MEDIUM';
/** A reason says why the finding is safe in this app; a few words cannot. */
const MIN_REASON_CHARS = 60;

/** Reads and checks the list; throws with every problem named. */
export function loadJustifications(path) {
  const parsed = JSON.parse(readFileSync(path, 'utf8'));
  const entries = Array.isArray(parsed?.justified) ? parsed.justified : undefined;
  if (!entries) throw new Error(`${path}: expected { "justified": [ { "check", "file", "reason" } ] }`);
  const problems = entries.flatMap((entry, index) => {
    const name = `${path}: justified[${index}]`;
    if (typeof entry?.check !== 'string' || !/^[A-Z_]+$/.test(entry.check))
      return [`${name}: "check" must be a check id such as PRELOAD_JS_CHECK`];
    if (typeof entry.file !== 'string' || entry.file === '') return [`${name}: "file" is missing`];
    if (typeof entry.reason !== 'string' || entry.reason.trim().length < MIN_REASON_CHARS)
      return [`${name}: "reason" must say why ${entry.check} is safe here (${MIN_REASON_CHARS}+ characters)`];
    return [];
  });
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return entries.map((entry) => ({ ...entry, matchesFile: globMatcher(entry.file) }));
}

/**
 * `file` is a path relative to the project, where `*` stands for any characters but `/` and `**`
 * for any characters (built asset names carry a content hash).
 */
function globMatcher(glob) {
  const pattern = glob
    .split('**')
    .map((part) => part.split('*').map(escapeRegExp).join('[^/]*'))
    .join('.*');
  const regex = new RegExp(`^${pattern}$`);
  return (file) => regex.test(file);
}

function escapeRegExp(text) {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Each finding with its status ('justified', 'below threshold' or 'UNJUSTIFIED') and the entries
 * that matched no finding.
 */
export function judge(findings, justifications) {
  const threshold = SEVERITIES.indexOf(THRESHOLD);
  const used = new Set();
  const judged = findings.map((finding) => {
    const entry = justifications.find((j) => j.check === finding.check && j.matchesFile(finding.file));
    if (entry) used.add(entry);
    const status = entry
      ? 'justified'
      : SEVERITIES.indexOf(finding.severity) >= threshold
        ? 'UNJUSTIFIED'
        : 'below threshold';
    return { ...finding, status };
  });
  const stale = justifications.filter((entry) => !used.has(entry));
  return { judged, stale };
}
