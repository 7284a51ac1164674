import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * npm test's electronegativity step (scripts/electronegativity.mjs) fails where it must: on an
 * unjustified finding, a stale justification, a file it cannot parse and a reason that says
 * nothing. The project itself passes it (npm test runs it); these run it on a small insecure app.
 */
const REASON =
  'A test fixture: this window is insecure on purpose, to see the step accept a justified finding.';

function insecureApp(justified: unknown[]): string {
  const root = mkdtempSync(join(tmpdir(), 'scribe-eng-'));
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ devDependencies: { electron: '41.7.1' } }),
    'src/main/window.ts': [
      "import { BrowserWindow } from 'electron';",
      'export const open = (): BrowserWindow =>',
      "  new BrowserWindow({ webPreferences: { contextIsolation: false, disableBlinkFeatures: 'Auxclick' } });",
    ].join('\n'),
    'src/main/broken.ts': 'export const = ;',
    'out/renderer/index.html': '<!doctype html><html><head><title>x</title></head><body></body></html>',
    'security/justified.json': JSON.stringify({ justified }),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function runStep(root: string) {
  const { status, stdout, stderr } = spawnSync(
    process.execPath,
    ['scripts/electronegativity.mjs', '--root', root, '--justified', 'security/justified.json'],
    { encoding: 'utf8' },
  );
  return { status, output: stdout + stderr };
}

// Each run loads the tool and parses the fixture: seconds, more on a busy machine.
describe('the electronegativity step', { timeout: 60_000 }, () => {
  it('fails on an unjustified finding and on a file it could not parse', () => {
    const { status, output } = runStep(insecureApp([]));
    expect(status).toBe(1);
    expect(output).toMatch(/UNJUSTIFIED CONTEXT_ISOLATION_JS_CHECK at src\/main\/window\.ts:3/);
    // No CSP anywhere: a global finding, with no file to name.
    expect(output).toMatch(/UNJUSTIFIED CSP_GLOBAL_CHECK at N\/A/);
    expect(output).toMatch(/NOT SCANNED src\/main\/broken\.ts/);
  });

  it('accepts a justified finding, and fails on a justification that matches nothing', () => {
    const { status, output } = runStep(
      insecureApp([
        { check: 'CONTEXT_ISOLATION_JS_CHECK', file: 'src/main/*.ts', reason: REASON },
        { check: 'NODE_INTEGRATION_JS_CHECK', file: 'src/main/window.ts', reason: REASON },
      ]),
    );
    expect(status).toBe(1);
    expect(output).toMatch(/CONTEXT_ISOLATION_JS_CHECK\s+src\/main\/window\.ts:3\s+justified/);
    expect(output).toContain('STALE justification: NODE_INTEGRATION_JS_CHECK in src/main/window.ts');
  });

  it('refuses a justification without a reason', () => {
    const { status, output } = runStep(
      insecureApp([{ check: 'CONTEXT_ISOLATION_JS_CHECK', file: 'src/main/window.ts', reason: 'fine' }]),
    );
    expect(status).toBe(1);
    expect(output).toContain('"reason" must say why CONTEXT_ISOLATION_JS_CHECK is safe here');
  });
});
