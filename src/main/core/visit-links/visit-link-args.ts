import { VISIT_LINK_SCHEME } from '../../../shared/visit-link';

/**
 * The visit link in a launch's command line (Windows and Linux: the installers register
 * `"…" -- "%1"` and `Exec=… %U`, so the link is an argument of its own). Chromium may reorder and
 * add switches (Electron's second-instance docs), so it is looked for, not taken by position.
 */
export function visitLinkInArgs(argv: readonly string[]): string | undefined {
  const prefix = `${VISIT_LINK_SCHEME}:`;
  return argv.find((arg) => arg.slice(0, prefix.length).toLowerCase() === prefix);
}
