import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Browser mode on Ctrl+C or a polite kill (SIGTERM): it stops and exits, always. Each case runs
 * stopOnSignals in a process of its own, sends it SIGTERM, and reads how it exits.
 */
async function exitAfterSigterm(stop: string): Promise<{ code: number | null; stderr: string; ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'scribe-stop-'));
  const script = join(dir, 'stop.ts');
  const module = resolve('src/main/browser-host/browser-mode.ts');
  writeFileSync(
    script,
    `import { stopOnSignals } from ${JSON.stringify(module)};\n` +
      `stopOnSignals({ stop: ${stop} }, 300);\n` +
      `setInterval(() => undefined, 1_000);\nconsole.log('ready');\n`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  await new Promise<void>((ready) =>
    child.stdout.on('data', (data: Buffer) => data.includes('ready') && ready()),
  );
  const sent = Date.now();
  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr, ms: Date.now() - sent };
}

describe('browser mode stopped by a signal', () => {
  it('exits 0 once the stop is done', async () => {
    expect((await exitAfterSigterm('async () => undefined')).code).toBe(0);
  }, 30_000);

  it('exits 1 and says why when the stop fails', async () => {
    const { code, stderr } = await exitAfterSigterm('async () => { throw new TypeError("x"); }');
    expect(code).toBe(1);
    expect(stderr).toContain('Stopping failed (TypeError): exiting now.');
  }, 30_000);

  it('exits 1 when the stop never ends, after its limit', async () => {
    const { code, stderr } = await exitAfterSigterm('() => new Promise<void>(() => undefined)');
    expect(code).toBe(1);
    expect(stderr).toContain('Stopping took longer than 0.3 s: exiting now.');
  }, 30_000);
});
