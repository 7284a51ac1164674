// @doyensec/electronegativity run offline over a list of files. Its own runner (`run()` and the
// CLI) first fetches a translation file from S3 and then Electron's release list from GitHub (the
// AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK); on a machine without network both only time out, and
// neither belongs in a test. So this drives the tool's parts (Parser, Finder, GlobalChecks) the
// way its runner does, with the English messages read from its own package and that one check
// left out. Paths into dist/ are those of the pinned 1.10.3 (package.json).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const TOOL_PACKAGE = createRequire(import.meta.url).resolve('@doyensec/electronegativity/package.json');
const requireFromTool = createRequire(TOOL_PACKAGE);
export const TOOL_VERSION = requireFromTool('./package.json').version;

/** The one check that needs the network (it downloads Electron's release notes). */
export const NETWORK_CHECK = 'AvailableSecurityFixesGlobalCheck';

/** Checks call the global `__` (i18n) in their constructors: register it before loading them. */
function registerMessages() {
  const i18n = requireFromTool('i18n');
  i18n.configure({
    locales: ['en-US'],
    defaultLocale: 'en-US',
    directory: join(dirname(TOOL_PACKAGE), 'dist', 'locales'),
    updateFiles: false,
    objectNotation: true,
    register: globalThis,
  });
  i18n.setLocale('en-US');
}

/**
 * The tool's parser picks a grammar by extension and skips names it does not know (.cjs, .mjs):
 * those are read as JavaScript.
 */
function nameForParser(file) {
  return file.replace(/\.[cm]js$/, '.js');
}

/**
 * Scans `files` (absolute paths under `root`) and returns every finding, with paths relative to
 * `root`, and every file the tool could not parse (a file it cannot read is a file it did not
 * check). `eng-disable` comments in the code silence nothing: the justification list is the one
 * place a finding is accepted, with its reason.
 */
export async function scan({ root, files, electronVersion }) {
  registerMessages();
  const { Parser } = requireFromTool('./dist/parser/index.js');
  const { Finder, GlobalChecks } = requireFromTool('./dist/finder/index.js');

  // As the tool's runner: Babel first for TypeScript, esprima first for JavaScript.
  const parser = new Parser(false, true);
  const globalChecks = new GlobalChecks([], [NETWORK_CHECK.toLowerCase()]);
  const finder = new Finder([], []);
  const atomic = [];
  const unparsed = [];
  for (const file of files) {
    try {
      const [type, data, content] = parser.parse(nameForParser(file), readFileSync(file));
      if (data === null) throw new Error('not a file type the tool reads');
      for (const issue of await finder.find(file, data, type, content, null, electronVersion)) {
        issue.visibility = { excludesGlobal: [], inlineDisabled: false, globalCheckDisabled: false };
        atomic.push(issue);
      }
    } catch (error) {
      unparsed.push({ file: relative(root, file), message: error.message.split('\n')[0] });
    }
  }
  // The second pass, e.g. the CSP check that reads every CSP the first pass found.
  const issues = await globalChecks.getResults(atomic, undefined);
  // A global check hides the atomic findings it settled (a permission handler exists, say), as the
  // tool's runner does.
  const findings = issues
    .filter((issue) => !issue.visibility?.globalCheckDisabled)
    .map((issue) => ({
      check: issue.id,
      file: issue.file === 'N/A' ? 'N/A' : relative(root, issue.file),
      line: issue.location.line,
      severity: issue.severity.name,
      severityValue: issue.severity.value,
      confidence: issue.confidence.name,
      sample: issue.sample ?? '',
      description: issue.description,
    }));
  return {
    checks: globalChecks._enabled_checks.length + finder._enabled_checks.length,
    findings,
    unparsed,
  };
}

/** The Electron version package.json asks for, as the tool's loader reads it (its defaults differ by version). */
export function electronVersionOf(packageJson) {
  const { findElectronVersionFromPackageJson } = requireFromTool('./dist/util/electron_version.js');
  return findElectronVersionFromPackageJson(packageJson);
}

/** The tool's severity scale, lowest first. */
export const SEVERITIES = ['INFORMATIONAL', 'LOW', 'MEDIUM', 'HIGH'];
