import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../shared/contract';
import { RECORDING_DELETED_AT_FINISHED, recordingSpanRequestSchema } from '../../../shared/contract';
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/settings';
import { createEncounterHistory } from '../history/encounter-history';
import { createJsonFileStorage } from '../json-file-storage';
import { silentLogger } from '../ports';
import { createSignOutGate } from '../privacy/sign-out-gate';
import { createAudioSpool } from '../spool/audio-spool';
import { key, piecesOf, randomAudio, spoolOptions } from '../spool/spool.test-support';
import { UserFacingError } from '../user-facing-error';
import { createVisitSeal } from '../sealed/visit-seal';
import { createReplay } from './replay-verbs';

const MINE = 'dr-ames';
const visitSeal = createVisitSeal(key);
/** The visit as recorded by `providerId`, sealed as Start seals it (History believes nothing else). */
const recordedBy = (sessionId: string, providerId: string) => {
  const deliverTo = {
    service: 'https://scribe.example',
    partnerId: 'p1',
    providerId,
    model: 'bearer' as const,
  };
  return { deliverTo, sealed: visitSeal.seal(sessionId, { deliverTo }) };
};

/** A delivered visit of 2 s recorded by dr-ames, History and the replay verbs over it. */
async function visitToPlay(settings: Partial<Settings> = {}) {
  const options = spoolOptions();
  const audio = randomAudio(32 * 2_000);
  const spool = createAudioSpool(options);
  for (const piece of piecesOf(audio)) spool.append(piece);
  spool.close();
  spool.setState('delivered');
  const history = await createEncounterHistory({
    storage: createJsonFileStorage(
      join(mkdtempSync(join(tmpdir(), 'scribe-replay-')), 'history.json'),
      silentLogger,
    ),
    log: silentLogger,
    onChange: () => undefined,
    visitSeal: () => visitSeal,
  });
  const entry: HistoryEntry = {
    encounterId: 'bed12',
    sessionId: options.sessionId,
    kind: 'ambient',
    state: 'done',
    startedAt: 1_000,
    ...recordedBy(options.sessionId, MINE),
  };
  history.record(entry);
  const gate = createSignOutGate();
  const inUse = new Set<string>();
  const signedIn = { now: true };
  const replay = createReplay({
    spoolRoot: dirname(options.dir),
    spoolKey: async () => key,
    settings: { get: () => ({ ...DEFAULT_SETTINGS, ...settings }) },
    gate,
    history,
    requireMine: (visit) => {
      if (visit.deliverTo?.providerId !== MINE)
        throw new UserFacingError('invalid_request', 'This visit was recorded by another clinician.');
    },
    inUse: (sessionId) => inUse.has(sessionId),
    signedIn: async () => signedIn.now,
    now: () => 5_000,
    log: silentLogger,
  });
  return { replay, history, gate, audio, inUse, signedIn, dir: options.dir, sessionId: options.sessionId };
}

describe('playing a visit back (recording.span)', () => {
  it('gives the clinician who recorded it the span of its own audio, as 16 kHz PCM', async () => {
    const { replay, audio, sessionId } = await visitToPlay();
    const span = await replay.span({ sessionId, fromMs: 500, toMs: 1_200 });
    expect(span).toMatchObject({ fromMs: 500, toMs: 1_200, sampleRate: 16_000 });
    expect(Buffer.from(span.pcm, 'base64').equals(audio.subarray(32 * 500, 32 * 1_200))).toBe(true);
  });

  it('plays nothing while signed out or locked, nor without a live sign-in', async () => {
    const { replay, gate, signedIn, sessionId } = await visitToPlay();
    signedIn.now = false;
    await expect(replay.span({ sessionId, fromMs: 0, toMs: 500 })).rejects.toThrow(
      'Sign in to play the recording.',
    );
    signedIn.now = true;
    gate.lock();
    await expect(replay.span({ sessionId, fromMs: 0, toMs: 500 })).rejects.toThrow(
      'This window is locked: unlock it to play the recording.',
    );
    gate.unlock();
    gate.signOut();
    await expect(replay.span({ sessionId, fromMs: 0, toMs: 500 })).rejects.toThrow(
      'You signed out: sign in to play the recording.',
    );
  });

  it('plays nothing of another clinician’s visit, nor of a visit History does not know', async () => {
    const { replay, history, sessionId } = await visitToPlay();
    history.record({ sessionId, ...recordedBy(sessionId, 'dr-other') });
    await expect(replay.span({ sessionId, fromMs: 0, toMs: 500 })).rejects.toThrow(/another clinician/);
    await expect(replay.span({ sessionId: 'unknown', fromMs: 0, toMs: 500 })).rejects.toThrow(
      'This app has no recording of that visit.',
    );
  });

  it('plays nothing where the organisation keeps no recording to play back', async () => {
    const { replay, sessionId } = await visitToPlay({ replayAudio: false });
    await expect(replay.span({ sessionId, fromMs: 0, toMs: 500 })).rejects.toThrow(/turned off/);
  });

  it('at Finished the recording leaves the disk, and Play says why it is gone, after an Undo too', async () => {
    const { replay, history, dir, sessionId } = await visitToPlay();
    replay.deleteAtFinished(sessionId);
    history.record({ sessionId, finishedAt: 5_000 });
    expect(existsSync(dir)).toBe(false);
    expect(history.find(sessionId)?.recordingDeletedAt).toBe(5_000);
    await expect(replay.span({ sessionId, fromMs: 0, toMs: 500 })).rejects.toThrow(
      RECORDING_DELETED_AT_FINISHED,
    );
    // Undo: the note is to finish again; its recording is not back.
    history.unfinish(sessionId);
    await expect(replay.span({ sessionId, fromMs: 0, toMs: 500 })).rejects.toThrow(
      RECORDING_DELETED_AT_FINISHED,
    );
  });

  it('a recording in use is not deleted from under it; one gone from the disk is said in one sentence', async () => {
    const { replay, history, dir, sessionId, inUse } = await visitToPlay();
    inUse.add(sessionId);
    replay.deleteAtFinished(sessionId);
    expect(existsSync(dir)).toBe(true);
    expect(history.find(sessionId)?.recordingDeletedAt).toBeUndefined();
    // Gone by the retention's sweep (or by hand): Play says so.
    rmSync(dir, { recursive: true });
    await expect(replay.span({ sessionId, fromMs: 0, toMs: 500 })).rejects.toThrow(
      'The recording of this visit is no longer on this computer.',
    );
  });

  it('refuses a span that is backward, negative or longer than two minutes, naming the field', () => {
    const problems = (span: object) =>
      recordingSpanRequestSchema
        .safeParse({ sessionId: 's', ...span })
        .error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(problems({ fromMs: 0, toMs: 500 })).toBeUndefined();
    expect(problems({ fromMs: 900, toMs: 500 })).toEqual([['toMs', 'must end after it starts']]);
    expect(problems({ fromMs: -1, toMs: 500 })).toEqual([['fromMs', 'must not be negative']]);
    expect(problems({ fromMs: 0, toMs: 120_001 })).toEqual([['toMs', 'must be at most 120 s long']]);
  });
});
