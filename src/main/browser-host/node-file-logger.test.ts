import { chmod, mkdir, mkdtemp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scrubbedLogger } from '../core/logging/scrubbed-logger';
import { createSecretValues } from '../core/logging/secret-values';
import { browserModeLogPath, createNodeFileLogger } from './node-file-logger';

describe('the browser-mode log file (electron-log/node)', () => {
  it('writes one line per call to <data>/logs/main.log, readable by its owner only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scribe-log-'));
    const filePath = browserModeLogPath(dir);
    expect(filePath).toBe(join(dir, 'logs', 'main.log'));
    const log = createNodeFileLogger({ filePath, console: false });
    log.info('auth: signed in to the service', { model: 'bearer', validForMs: 3_600_000 });
    log.warn('stream: closed', { sessionId: 's1', code: 1006 });
    log.error('plain');

    const lines = (await readFile(filePath, 'utf8')).trimEnd().split(/\r?\n/);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d\] \[info\] +auth: signed in to the service \{"model":"bearer","validForMs":3600000\}$/,
    );
    expect(lines[1]).toMatch(/\[warn\] +stream: closed \{"sessionId":"s1","code":1006\}$/);
    expect(lines[2]).toMatch(/\[error\] plain$/);
    if (process.platform !== 'win32') {
      expect((await stat(filePath)).mode & 0o777).toBe(0o600);
      expect((await stat(join(dir, 'logs'))).mode & 0o077).toBe(0);
    }
  });

  it('rotates at its size limit into main.old.log, keeping one old file, both owner-only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scribe-log-'));
    const filePath = browserModeLogPath(dir);
    const log = createNodeFileLogger({ filePath, console: false, maxBytes: 2_000 });
    for (let i = 0; i < 100; i++) log.info(`line ${i}`, { attempt: i });

    expect((await readdir(join(dir, 'logs'))).sort()).toEqual(['main.log', 'main.old.log']);
    const current = await readFile(filePath, 'utf8');
    expect(current).toContain('line 99 {"attempt":99}');
    expect(current).not.toContain('line 0 ');
    expect(Buffer.byteLength(current)).toBeLessThanOrEqual(2_200);
    if (process.platform !== 'win32') {
      for (const name of ['main.log', 'main.old.log']) {
        expect((await stat(join(dir, 'logs', name))).mode & 0o777).toBe(0o600);
      }
    }
  });

  it('narrows a log file an earlier run left readable by others', async () => {
    if (process.platform === 'win32') return;
    const dir = await mkdtemp(join(tmpdir(), 'scribe-log-'));
    const filePath = browserModeLogPath(dir);
    await mkdir(join(dir, 'logs'));
    await writeFile(filePath, 'a line from an earlier version\n');
    await chmod(filePath, 0o644);
    createNodeFileLogger({ filePath, console: false }).info('second run');
    expect((await stat(filePath)).mode & 0o777).toBe(0o600);
  });

  it('behind the scrubber, holds no registered secret (the way both shells wire it)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scribe-log-'));
    const filePath = browserModeLogPath(dir);
    const secrets = createSecretValues();
    secrets.add('launch-key-abcdef123456');
    const log = scrubbedLogger(createNodeFileLogger({ filePath, console: false }), secrets);
    log.warn('page asked for /?key=launch-key-abcdef123456', { reason: 'launch-key-abcdef123456' });
    const written = await readFile(filePath, 'utf8');
    expect(written).toContain('page asked for /?[query removed]');
    expect(written).not.toContain('launch-key-abcdef123456');
  });
});
