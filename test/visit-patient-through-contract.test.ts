import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJsonFileStorage } from '../src/main/core/json-file-storage';
import { silentLogger, systemClock } from '../src/main/core/ports';
import { createMemorySecretBox } from '../src/main/core/secrets/secret-box';
import { createAppCore, type AppCore } from '../src/main/core/app-core';
import type { HistoryEntry, RecorderView } from '../src/shared/contract';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { callVerb, signInWithTestPin, useBearerPartner } from './support/sandbox-partner';
import { testAppInfo } from './support/test-core';

/**
 * Issue 31: a note opened again keeps its patient line. Main seals the patient details a visit is
 * started with beside its unfinished note, for the clinician who recorded it; the window asks for
 * them with notes.patient. Nothing of them is in History or in any file in the clear.
 */
let sandbox: Sandbox;
let core: AppCore | undefined;
let dataDir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ asr: 'energy' });
});
afterAll(() => sandbox.close());
afterEach(async () => {
  await core?.stop();
  core = undefined;
});

async function startCore(): Promise<AppCore> {
  dataDir = await mkdtemp(join(tmpdir(), 'scribe-visit-patient-'));
  core = await createAppCore({
    settingsStorage: createJsonFileStorage(join(dataDir, 'settings.json'), silentLogger),
    secrets: createMemorySecretBox(),
    appInfo: testAppInfo(dataDir),
    log: silentLogger,
    clock: systemClock,
  });
  return core;
}

const PATIENT_INFO = { date_of_birth: '1957-03-14', sex: 'FEMALE' } as const;

async function startVisit(core: AppCore, encounterId: string): Promise<string> {
  const view = await callVerb<RecorderView>(core, 'encounter.start', {
    kind: 'ambient',
    encounterId,
    context: { patient_info: PATIENT_INFO },
  });
  return view.sessionId!;
}

/** Every file under the data directory that holds `text` as bytes. */
async function filesHolding(text: string): Promise<string[]> {
  const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries.filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    if ((await readFile(path)).includes(Buffer.from(text))) found.push(path);
  }
  return found;
}

describe('the patient details of a visit, kept sealed by main', () => {
  it('are there for the clinician who recorded it, sealed, never in History, and gone when it is discarded', async () => {
    const core = await startCore();
    await useBearerPartner(core, sandbox.url, 'dr-a');
    const sessionId = await startVisit(core, 'patient1');
    expect(await callVerb(core, 'notes.patient', { sessionId })).toEqual({
      patient: { dateOfBirth: '1957-03-14', sex: 'FEMALE' },
    });
    const { entries } = await callVerb<{ entries: HistoryEntry[] }>(core, 'history.list');
    expect(JSON.stringify(entries)).not.toContain('1957');
    await new Promise((resolve) => setTimeout(resolve, 200)); // history.json written
    expect(await filesHolding('1957-03-14')).toEqual([]);
    expect(await readdir(join(dataDir, 'notes'))).toEqual([`${sessionId}.note`]);

    // Another clinician on the same laptop: not their visit.
    await callVerb(core, 'settings.set', { providerId: 'dr-b' });
    await signInWithTestPin(core);
    const other = await core.router.dispatch('notes.patient', { sessionId });
    expect(other.ok ? 'answered' : other.error.message).toBe(
      `Sign in as dr-a at ${new URL(sandbox.url).host} to open this visit.`,
    );
    await callVerb(core, 'settings.set', { providerId: 'dr-a' });
    await signInWithTestPin(core);

    // Cancel (discard): nothing of the visit stays.
    await callVerb(core, 'recorder.cancel');
    expect(await readdir(join(dataDir, 'notes'))).toEqual([]);
    expect(await callVerb(core, 'notes.patient', { sessionId })).toEqual({});
  });

  it('a visit started without patient details keeps no file', async () => {
    const core = await startCore();
    await useBearerPartner(core, sandbox.url, 'dr-a');
    const view = await callVerb<RecorderView>(core, 'encounter.start', {
      kind: 'ambient',
      encounterId: 'plain1',
    });
    expect(await callVerb(core, 'notes.patient', { sessionId: view.sessionId })).toEqual({});
    await expect(readdir(join(dataDir, 'notes'))).rejects.toThrow('ENOENT');
    await callVerb(core, 'recorder.cancel');
  });
});
