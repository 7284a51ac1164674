import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { syntheticSpeech } from '../sandbox/test-support/service-client';
import type { AppCore, AppCoreDeps } from '../src/main/core/app-core';
import { createJsonFileStorage } from '../src/main/core/json-file-storage';
import { silentLogger, systemClock, type Clock } from '../src/main/core/ports';
import { createMemorySecretBox } from '../src/main/core/secrets/secret-box';
import {
  encodeAudioChunk,
  RECORDING_DELETED_AT_FINISHED,
  type RecordingSpan,
  type Results,
} from '../src/shared/contract';
import { msFromOffset } from '../src/shared/service';
import { createAppStore } from '../src/renderer/store/app-store';
import { REPLAY_LEAD_MS, type ReplayPlayer } from '../src/renderer/store/replay-slice';
import { replayLines } from '../src/renderer/views/replay/replay-lines';
import { inProcessApi } from './support/in-process-api';
import { callVerb, signInWithTestPin, TEST_PIN, useBearerPartner } from './support/sandbox-partner';
import { createTestCore, testAppInfo } from './support/test-core';

/**
 * Issue 38: a visit's recording is kept, sealed, after the service has it, until its note is
 * Finished, so a transcript line can be played back: main reads the line's span from the spool for
 * the clinician who recorded it, signed in and unlocked. At Finished it leaves the disk at once;
 * with `replayAudio` off nothing plays.
 */
let sandbox: Sandbox;
let core: AppCore | undefined;
beforeAll(async () => {
  sandbox = await startSandbox({ asr: 'energy', minSpeechMs: 500 });
});
afterAll(() => sandbox.close());
afterEach(async () => {
  await core?.stop();
  core = undefined;
});

const refusal = async (verb: 'recording.span', payload: unknown) => {
  const result = await core!.router.dispatch(verb, payload);
  return result.ok ? 'answered' : result.error.message;
};

/**
 * Records two utterances with a pause between them, 4 s in all (every chunk flagged speech: nothing
 * is held back, so the service's audio is the recording's), ends it, waits for its note.
 */
async function recordVisit(settings: Record<string, unknown> = {}, deps: Partial<AppCoreDeps> = {}) {
  core = await createTestCore(deps);
  await useBearerPartner(core, sandbox.url, 'dr-replay', settings);
  const { sessionId } = await callVerb<{ sessionId: string }>(core, 'encounter.start', {
    kind: 'ambient',
    encounterId: 'replay1',
  });
  const audio = syntheticSpeech([
    { speechMs: 1_500, silenceMs: 700 },
    { speechMs: 1_500, silenceMs: 300 },
  ]);
  for (let seq = 0; seq * 3_200 < audio.length; seq++) {
    const pcm = audio.subarray(seq * 3_200, (seq + 1) * 3_200);
    core.acceptChunk(encodeAudioChunk({ seq, capturedAt: seq * 100, pcm, speech: true }));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await callVerb(core, 'recorder.end');
  let results: Results | undefined;
  for (let tries = 0; tries < 300 && results?.status !== 'completed'; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    results = await callVerb<Results>(core, 'results.get', { sessionId });
  }
  expect(results?.status).toBe('completed');
  const { dataDirectory } = await callVerb<{ dataDirectory: string }>(core, 'app.info');
  const spoolRoot = join(dataDirectory, 'spool');
  return { sessionId, audio, results: results!, spoolRoot };
}

describe('playing a line back', () => {
  it('gives the line’s span of the visit’s own audio, until Finished deletes the recording', async () => {
    const { sessionId, audio, results, spoolRoot } = await recordVisit();
    // The second line: its span starts well into the recording.
    expect(results.transcript).toHaveLength(2);
    const line = results.transcript![1]!;
    const fromMs = msFromOffset(line.start_offset);
    const toMs = msFromOffset(line.end_offset);
    const span = await callVerb<RecordingSpan>(core!, 'recording.span', { sessionId, fromMs, toMs });
    expect(span).toMatchObject({ fromMs, toMs, sampleRate: 16_000 });
    expect(Buffer.from(span.pcm, 'base64').equals(audio.subarray(fromMs * 32, toMs * 32))).toBe(true);

    // Locked: nothing plays.
    await callVerb(core!, 'privacy.lock');
    expect(await refusal('recording.span', { sessionId, fromMs, toMs })).toBe(
      'This window is locked: unlock it to play the recording.',
    );
    await callVerb(core!, 'privacy.unlock', { pin: TEST_PIN });

    // Bad input names the field and the rule.
    expect(await refusal('recording.span', { sessionId, fromMs: 900, toMs: 100 })).toMatch(
      /must end after it starts/,
    );

    // Finished: no file under the data directory holds the audio, and Play says why. The window
    // says "deleted" as soon as History tells it Finished, so by then the files are gone: a busy
    // machine that stops main between the two must not leave the window saying what is not so.
    expect(existsSync(join(spoolRoot, sessionId))).toBe(true);
    const onDiskWhenToldFinished: string[][] = [];
    core!.events.subscribe((event, payload) => {
      if (event !== 'history.changed') return;
      const { entries } = payload as { entries: { sessionId: string; finishedAt?: number }[] };
      if (entries.find((entry) => entry.sessionId === sessionId)?.finishedAt !== undefined)
        onDiskWhenToldFinished.push(readdirSync(spoolRoot));
    });
    await callVerb(core!, 'notes.finish', { sessionId });
    expect(onDiskWhenToldFinished.length, 'History told the window Finished').toBeGreaterThan(0);
    expect(onDiskWhenToldFinished[0], 'the spool when the window was told Finished').toEqual([]);
    expect(readdirSync(spoolRoot)).toEqual([]);
    expect(await refusal('recording.span', { sessionId, fromMs, toMs })).toBe(RECORDING_DELETED_AT_FINISHED);
  });

  it('with replayAudio off, nothing plays', async () => {
    const { sessionId, results } = await recordVisit({ replayAudio: false });
    const line = results.transcript![0]!;
    expect(
      await refusal('recording.span', {
        sessionId,
        fromMs: msFromOffset(line.start_offset),
        toMs: msFromOffset(line.end_offset),
      }),
    ).toBe('Playing a visit back is turned off on this computer.');
  });

  it('the window’s Play: the line from 300 ms before it, paused by a second press, stopped by the lock', async () => {
    const { sessionId, audio, results } = await recordVisit();
    const played: { pcm: Int16Array; rate: number }[] = [];
    const calls: string[] = [];
    const player: ReplayPlayer = {
      warm: () => undefined,
      prepare: async () => undefined,
      setRate: (rate) => void calls.push(`rate ${rate}`),
      play: async (pcm, sampleRate, rate) => {
        expect(sampleRate).toBe(16_000);
        played.push({ pcm, rate });
      },
      pause: async () => void calls.push('pause'),
      resume: async () => void calls.push('resume'),
      stop: () => void calls.push('stop'),
    };
    const api = inProcessApi(core!);
    const store = createAppStore(api, undefined, player);
    const line = replayLines(results.transcript!).get(results.transcript![1]!.transcript_id)!;

    // The note on screen: main reads the recording once ahead of the first press, however often
    // the window asks (each render of the transcript's bar), and nothing plays.
    const spans = () => api.calls.filter((verb) => verb === 'recording.span').length;
    store.getState().warmReplay({ sessionId, line });
    store.getState().warmReplay({ sessionId, line });
    await vi.waitFor(() => expect(spans()).toBe(1));
    expect(played).toHaveLength(0);
    expect(store.getState().replaying).toBeNull();

    store.getState().setReplayRate(1.5);
    await store.getState().playLine(sessionId, line);
    expect(store.getState().replaying).toEqual({ sessionId, lineId: line.id, paused: false });
    const from = (line.fromMs - REPLAY_LEAD_MS) * 32;
    const expected = audio.subarray(from, line.toMs * 32);
    expect(played).toHaveLength(1);
    expect(played[0]!.rate).toBe(1.5);
    expect(
      Buffer.from(played[0]!.pcm.buffer, played[0]!.pcm.byteOffset, played[0]!.pcm.byteLength).equals(
        expected,
      ),
    ).toBe(true);
    await store.getState().playLine(sessionId, line);
    expect(store.getState().replaying?.paused).toBe(true);
    await store.getState().playLine(sessionId, line);
    expect(calls.filter((c) => c === 'pause' || c === 'resume')).toEqual(['pause', 'resume']);

    // The idle lock clears the note from the window: nothing plays on.
    store.getState().clearResults();
    expect(store.getState().replaying).toBeNull();
    expect(calls.at(-1)).toBe('stop');

    // After Finished the press plays nothing and says why, in main's sentence.
    await callVerb(core!, 'notes.finish', { sessionId });
    await store.getState().playLine(sessionId, line);
    expect(played).toHaveLength(1);
    expect(store.getState().replayProblem).toEqual({
      sessionId,
      where: 'transcript',
      message: RECORDING_DELETED_AT_FINISHED,
    });
    // Pressed under a flag, it says so there (the flag's panel), not above the transcript.
    await store.getState().playLine(sessionId, line, 'flag');
    expect(store.getState().replayProblem).toEqual({
      sessionId,
      where: 'flag',
      message: RECORDING_DELETED_AT_FINISHED,
    });
  });

  it('kept past the ten minutes until Finished; with replayAudio off, gone after them', async () => {
    // One data directory and one secret box (the spool key) across restarts, eleven minutes on.
    const dataDir = mkdtempSync(join(tmpdir(), 'scribe-replay-kept-'));
    const secrets = createMemorySecretBox();
    const on = (clock: Clock): Partial<AppCoreDeps> => ({
      settingsStorage: createJsonFileStorage(join(dataDir, 'settings.json'), silentLogger),
      secrets,
      appInfo: testAppInfo(dataDir),
      clock,
    });
    const later = (minutes: number): Clock => ({ ...systemClock, now: () => Date.now() + minutes * 60_000 });
    const { sessionId, results, spoolRoot } = await recordVisit({}, on(systemClock));
    const line = results.transcript![0]!;
    const span = { sessionId, fromMs: msFromOffset(line.start_offset), toMs: msFromOffset(line.end_offset) };

    await core!.stop();
    core = await createTestCore(on(later(11)));
    expect(existsSync(join(spoolRoot, sessionId))).toBe(true);
    await signInWithTestPin(core);
    expect(await callVerb<RecordingSpan>(core, 'recording.span', span)).toMatchObject({ sampleRate: 16_000 });

    await callVerb(core, 'settings.set', { replayAudio: false });
    await core.stop();
    core = await createTestCore(on(later(22)));
    expect(readdirSync(spoolRoot)).toEqual([]);
  });
});
