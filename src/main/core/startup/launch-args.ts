import { MAX_VISIT_LINK_LENGTH, VISIT_LINK_SCHEME } from '../../../shared/visit-link';
import { isNetworkOrUrl, LOCAL_PATH_RULE } from './local-path';

/**
 * What a launch's command line asks of the desktop app (issue 28): the organisation's policy file
 * and a visit link from the EHR. The one reader of the command line, for the first launch and for
 * a second one that hands its link over.
 *
 * The installers register the app as `"…" -- "%1"` (Windows, resources/installer.nsh) and
 * `Exec=… -- %u` (the deb's desktop file): `--` ends the switches, and the link is the one argument
 * after it. A launcher that does not percent-encode a quote can split a link into several
 * arguments (`…" --policy=\\host\share\p.json "`), so:
 *
 * - switches (`--policy FILE`, `--policy=FILE`) are read only before the first `--`;
 * - after `--` the link is exactly one argument, and only one with the scheme; two or more, or one
 *   that is not a link, give no link (and no switch: nothing after `--` is ever a switch);
 * - without `--` (macOS, where links come as open-url events; a developer's own launch) the link is
 *   the argument with the scheme, and a switch after it is not read (as Electron's own check for
 *   CVE-2018-1000006 refuses arguments after a URL, shell/app/command_line_args.cc);
 * - a policy path that leads off this computer (UNC, a URL) is refused here, whatever its place.
 *
 * Problems are the reader's words only, never a value: a link carries patient details.
 */
export interface LaunchArgs {
  /** The policy file given with `--policy`, a path on this computer. */
  policy?: string;
  /** The visit link, not yet checked field by field (the core's readVisitLink does that). */
  link?: string;
  /** What was not taken, and why, for the log. */
  problems: string[];
}

const SWITCH_TERMINATOR = '--';
const POLICY_SWITCH = '--policy';

/** `argv` as the process has it: the executable first (and `.` when Electron runs a folder). */
export function readLaunchArgs(argv: readonly string[]): LaunchArgs {
  const args = argv.slice(1);
  const problems: string[] = [];
  const end = args.indexOf(SWITCH_TERMINATOR);
  const switches = end < 0 ? args : args.slice(0, end);

  let link: string | undefined;
  let readUpTo = switches.length;
  if (end >= 0) {
    const after = args.slice(end + 1);
    if (after.length > 1)
      problems.push(
        `${after.length} arguments came after "--", where only the visit link may be: no link was read (a launcher may have split a link at a quote)`,
      );
    else if (after.length === 1) {
      if (isVisitLink(after[0]!)) link = after[0];
      else problems.push(`the argument after "--" is not an ${VISIT_LINK_SCHEME}: link; it was not read`);
    }
    if (switches.some(isVisitLink))
      problems.push(`a visit link before "--" was not read (the link must follow "--")`);
  } else {
    const links = switches.flatMap((arg, index) => (isVisitLink(arg) ? [index] : []));
    if (links.length > 1) problems.push(`${links.length} visit links were given: none was read`);
    else if (links.length === 1) link = switches[links[0]!];
    // Nothing after a link is read as a switch: a launcher may have split the link there.
    if (links.length > 0) {
      readUpTo = links[0]!;
      if (switches.slice(readUpTo + 1).some(isSwitch))
        problems.push('switches after a visit link were not read');
    }
  }
  if (link !== undefined && link.length > MAX_VISIT_LINK_LENGTH) {
    problems.push(`the visit link is longer than ${MAX_VISIT_LINK_LENGTH} characters; it was not read`);
    link = undefined;
  }

  const policy = policySwitch(switches.slice(0, readUpTo), problems);
  return { ...(policy !== undefined ? { policy } : {}), ...(link !== undefined ? { link } : {}), problems };
}

function policySwitch(switches: readonly string[], problems: string[]): string | undefined {
  const given: (string | undefined)[] = [];
  for (let i = 0; i < switches.length; i++) {
    const arg = switches[i]!;
    if (arg === POLICY_SWITCH) {
      const next = switches[i + 1];
      given.push(next === undefined || next.startsWith('--') ? undefined : next);
      if (next !== undefined && !next.startsWith('--')) i++;
    } else if (arg.startsWith(`${POLICY_SWITCH}=`)) {
      given.push(arg.slice(POLICY_SWITCH.length + 1));
    }
  }
  if (given.length === 0) return undefined;
  if (given.length > 1) {
    problems.push('--policy was given more than once; no policy file was taken from the command line');
    return undefined;
  }
  const path = given[0];
  if (!path) {
    problems.push('--policy needs a file (--policy FILE or --policy=FILE); none was taken');
    return undefined;
  }
  const refused = remotePolicyPath(path);
  if (refused) {
    problems.push(`--policy ${refused}; it was not read`);
    return undefined;
  }
  return path;
}

/** Why a policy path is not a file on this computer (local-path.ts), or undefined when it is one. */
export function remotePolicyPath(path: string): string | undefined {
  return isNetworkOrUrl(path) ? LOCAL_PATH_RULE : undefined;
}

function isVisitLink(arg: string): boolean {
  return arg.slice(0, VISIT_LINK_SCHEME.length + 1).toLowerCase() === `${VISIT_LINK_SCHEME}:`;
}

function isSwitch(arg: string): boolean {
  return arg.startsWith('-');
}

/**
 * What a second launch sends the first with Electron's single-instance lock (`additionalData`): its
 * link, or that its command line had one that was refused (it logged why), or nothing.
 */
export type SecondInstanceData = { link: string } | { refused: true } | Record<string, never>;

export function secondInstanceData(launch: LaunchArgs): SecondInstanceData {
  if (launch.link !== undefined) return { link: launch.link };
  return launch.problems.length > 0 ? { refused: true } : {};
}

/** What the first instance makes of a second launch. */
export type SecondLaunch =
  { kind: 'plain' } | { kind: 'link'; link: string } | { kind: 'refused'; problem: string };

/**
 * A second launch as the first instance sees it, read from `additionalData` alone (never from the
 * argv Chromium forwards: reordered, with switches added, and whatever a launcher split a link
 * into). Anything but a plain object with a `link` string of a link's length, or `refused`, is
 * refused; nothing (an older build, a launch by another user) is a plain launch.
 */
export function linkFromSecondInstance(data: unknown): SecondLaunch {
  if (data === undefined || data === null) return { kind: 'plain' };
  const refused: SecondLaunch = {
    kind: 'refused',
    problem: 'a second launch sent data that is not a visit link; it was ignored',
  };
  if (typeof data !== 'object' || Array.isArray(data)) return refused;
  const prototype = Object.getPrototypeOf(data) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return refused;
  const keys = Object.keys(data);
  if (keys.length === 0) return { kind: 'plain' };
  if (keys.length > 1) return refused;
  const { link, refused: ownRefusal } = data as { link?: unknown; refused?: unknown };
  if (keys[0] === 'refused' && ownRefusal === true)
    return {
      kind: 'refused',
      problem: 'a second launch refused its own command line (its log line says why)',
    };
  if (
    keys[0] !== 'link' ||
    typeof link !== 'string' ||
    link.length > MAX_VISIT_LINK_LENGTH ||
    !isVisitLink(link)
  )
    return refused;
  return { kind: 'link', link };
}
