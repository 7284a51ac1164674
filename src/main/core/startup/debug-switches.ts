/**
 * Debugging switches a packaged app refuses (issue 39, item 7). The fuses already turn off
 * `--inspect` and `NODE_OPTIONS` for Node, but Chromium's `--remote-debugging-port` and
 * `--remote-debugging-pipe` would give any local process (another OS user's included) DevTools on
 * the window, unauthenticated: its notes, its audio, its calls to main. `--js-flags` changes V8
 * under the app, and `--enable-logging` sends Chromium's log (with page console lines) to stderr.
 * A packaged app that finds one exits before opening a window, with one line naming it.
 *
 * Read the way Chromium reads its own command line (base/command_line.cc): a switch starts with
 * `--` or `-` (and `/` on Windows), its name ends at `=`, Windows compares names in lower case, and
 * nothing after a bare `--` is a switch. Names here are compared in lower case everywhere: refusing
 * `--Remote-Debugging-Port` on Linux too costs nobody anything.
 */

/** Switch names refused outright, and families refused by prefix (`--inspect-brk`, `--inspect-port`). */
const REFUSED_NAMES = ['remote-debugging-port', 'remote-debugging-pipe', 'js-flags', 'enable-logging'];
const REFUSED_PREFIXES = ['inspect', 'remote-debugging-'];

/**
 * The first refused switch on `argv` (the executable first, as `process.argv`), as it was typed up
 * to its `=`, or undefined when there is none.
 */
export function refusedDebugSwitch(argv: readonly string[], platform: NodeJS.Platform): string | undefined {
  const prefixes = platform === 'win32' ? ['--', '-', '/'] : ['--', '-'];
  for (const arg of argv.slice(1)) {
    if (arg === '--') return undefined;
    const prefix = prefixes.find((candidate) => arg.startsWith(candidate));
    if (!prefix) continue;
    const typed = arg.split('=', 1)[0]!;
    const name = typed.slice(prefix.length).toLowerCase();
    if (REFUSED_NAMES.includes(name) || REFUSED_PREFIXES.some((refused) => name.startsWith(refused)))
      return typed;
  }
  return undefined;
}

/** The one line the app prints, and logs, as it exits. */
export function debugSwitchRefusal(typed: string): string {
  return `Ambient Scribe does not start with ${typed}, which would open its window to other programs: start it without that switch.`;
}
