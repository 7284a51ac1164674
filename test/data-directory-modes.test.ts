import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { syntheticSpeech } from '../sandbox/test-support/service-client';
import type { AppCore } from '../src/main/core/app-core';
import { encodeAudioChunk } from '../src/shared/contract';
import { callVerb } from './support/sandbox-partner';
import { createTestCore } from './support/test-core';

/**
 * Issue 16: another user on the laptop reads nothing of a visit. After a visit with the built-in
 * demo (date of birth, sex and a form), every folder in the app's data directory is 0700 and every
 * file 0600: the settings, History, the encrypted spool, and the demo service's own files.
 */
let core: AppCore | undefined;
afterEach(async () => core?.stop());

/** Every path under `dir` with its permission bits. */
function walk(dir: string): { path: string; directory: boolean; mode: number }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const info = statSync(path);
    const entry = { path, directory: info.isDirectory(), mode: info.mode & 0o777 };
    return info.isDirectory() ? [entry, ...walk(path)] : [entry];
  });
}

// Skipped on Windows: it has no POSIX permission bits (the profile folder is the user's own).
describe.skipIf(process.platform === 'win32')('the data directory after a demo visit', () => {
  it('holds only folders 0700 and files 0600', { timeout: 60_000 }, async () => {
    core = await createTestCore();
    const call = <T = Record<string, unknown>>(verb: Parameters<typeof callVerb>[1], payload?: unknown) =>
      callVerb<T>(core!, verb, payload);
    await call('auth.signIn');
    const { sessionId } = await call<{ sessionId: string }>('encounter.start', {
      kind: 'ambient',
      encounterId: 'modes1',
      context: { patient_info: { date_of_birth: '1961-04-09', sex: 'FEMALE' } },
      formItems: [{ form_template_id: 'VITALS_ASSESSMENT' }],
    });
    for (let seq = 0; seq < 30; seq++) {
      const speech = seq >= 5 && seq < 25;
      const pcm = syntheticSpeech([{ speechMs: speech ? 100 : 0, silenceMs: speech ? 0 : 100 }], seq + 1);
      core.acceptChunk(encodeAudioChunk({ seq, capturedAt: seq * 100, pcm, speech }));
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    await call('recorder.end');
    for (let i = 0; i < 1_500; i++) {
      const results = await call<{ done: boolean }>('results.get', { sessionId }).catch(() => ({
        done: false,
      }));
      if (results.done) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const { dataDirectory } = await call<{ dataDirectory: string }>('app.info');
    const entries = walk(dataDirectory);
    // The visit left files behind to check: History, the spool, the demo's sessions.
    expect(entries.some((e) => e.path.includes(join('spool', sessionId)))).toBe(true);
    expect(entries.some((e) => e.path.includes(join('sandbox', 'sessions')))).toBe(true);
    const wrong = entries
      .filter((e) => e.mode !== (e.directory ? 0o700 : 0o600))
      .map((e) => `${e.path.slice(dataDirectory.length)} ${e.mode.toString(8)}`);
    expect(wrong).toEqual([]);
  });
});
