import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync, truncateSync, writeFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAudioSpool, type SpoolOptions } from '../spool/audio-spool';
import { CHUNK, key, piecesOf, randomAudio, spoolOptions } from '../spool/spool.test-support';
import {
  deleteVisitRecording,
  findRecording,
  readRecordingSpan,
  RecordingUnavailable,
} from './visit-recording';

/** A delivered visit's spool holding `audio`, ten chunks (1 s) to a segment; returns its root. */
function recorded(audio: Buffer, overrides: Partial<SpoolOptions> = {}) {
  const options = spoolOptions(overrides);
  const spool = createAudioSpool(options);
  for (const piece of piecesOf(audio)) spool.append(piece);
  spool.close();
  spool.setState('delivered');
  return { root: dirname(options.dir), dir: options.dir, sessionId: options.sessionId };
}

/** Bytes of audio at `ms` (16 kHz mono 16-bit: 32 bytes a ms). */
const at = (ms: number) => ms * 32;

describe('a visit recording played back', () => {
  it('reads exactly the span asked for, across segments, from the sealed files', () => {
    const audio = randomAudio(at(3_500));
    const visit = recorded(audio);
    const recording = findRecording(visit.root, visit.sessionId)!;
    expect(recording.manifest.segments.length).toBe(4);

    const span = readRecordingSpan(recording, key, 700, 2_350);
    expect(span.fromMs).toBe(700);
    expect(span.toMs).toBe(2_350);
    expect(span.pcm.equals(audio.subarray(at(700), at(2_350)))).toBe(true);
  });

  it('reads only the segments the span falls in: a damaged segment elsewhere does not matter', () => {
    const audio = randomAudio(at(3_000));
    const visit = recorded(audio);
    const recording = findRecording(visit.root, visit.sessionId)!;
    const last = join(visit.dir, recording.manifest.segments[2]!.name);
    const bytes = readFileSync(last);
    bytes[100] = bytes[100]! ^ 0xff;
    writeFileSync(last, bytes);

    expect(readRecordingSpan(recording, key, 0, 1_500).pcm.equals(audio.subarray(0, at(1_500)))).toBe(true);
    expect(() => readRecordingSpan(recording, key, 2_100, 2_500)).toThrow(RecordingUnavailable);
    expect(() => readRecordingSpan(recording, key, 2_100, 2_500)).toThrow(/cannot be read/);
  });

  it('clips a span past the end to the audio there is, and says where it really ends', () => {
    const audio = randomAudio(at(1_250));
    const visit = recorded(audio);
    const span = readRecordingSpan(findRecording(visit.root, visit.sessionId)!, key, 1_000, 4_000);
    expect(span.toMs).toBe(1_250);
    expect(span.pcm.equals(audio.subarray(at(1_000)))).toBe(true);
    expect(() => readRecordingSpan(findRecording(visit.root, visit.sessionId)!, key, 2_000, 3_000)).toThrow(
      /no recording to play/,
    );
  });

  it('plays nothing with another key, or when a segment the span needs is gone', () => {
    const visit = recorded(randomAudio(at(2_500)));
    const recording = findRecording(visit.root, visit.sessionId)!;
    expect(() => readRecordingSpan(recording, randomBytes(32), 0, 500)).toThrow(/cannot be read/);
    rmSync(join(visit.dir, recording.manifest.segments[1]!.name));
    expect(() => readRecordingSpan(recording, key, 500, 1_500)).toThrow(/missing/);
  });

  it('plays the audio before a torn last record (the write a crash interrupted)', () => {
    const audio = randomAudio(at(1_500));
    const visit = recorded(audio);
    const recording = findRecording(visit.root, visit.sessionId)!;
    const tail = join(visit.dir, recording.manifest.segments[1]!.name);
    truncateSync(tail, readFileSync(tail).length - 10);
    const span = readRecordingSpan(recording, key, 1_000, 1_500);
    expect(span.toMs).toBe(1_400);
    expect(span.pcm.equals(audio.subarray(at(1_000), at(1_400)))).toBe(true);
  });

  it('finds the ambient leg only, and never a discarded one', () => {
    const visit = recorded(randomAudio(CHUNK * 3));
    expect(findRecording(visit.root, 'another')).toBeUndefined();
    const form = recorded(randomAudio(CHUNK), {
      sessionId: 'form-1',
      kind: 'form',
      visitSessionId: visit.sessionId,
    });
    expect(findRecording(form.root, 'form-1')).toBeUndefined();
    const spool = createAudioSpool(spoolOptions({ sessionId: 'gone' }));
    spool.append(randomAudio(CHUNK));
    spool.setState('discarded');
    expect(findRecording(dirname(spool.dir), 'gone')).toBeUndefined();
  });

  it('deletes every leg of a finished visit, but not one still in use', () => {
    const audio = randomAudio(CHUNK * 4);
    const visit = recorded(audio);
    // The form-filling leg sits beside it under the same root.
    const formSpool = createAudioSpool({
      ...spoolOptions(),
      dir: join(visit.root, 'form-leg'),
      sessionId: 'form-leg',
      kind: 'form',
      visitSessionId: visit.sessionId,
    });
    formSpool.append(randomAudio(CHUNK));
    formSpool.close();
    const other = createAudioSpool({ ...spoolOptions(), dir: join(visit.root, 'other'), sessionId: 'other' });
    other.close();

    expect(deleteVisitRecording(visit.root, visit.sessionId, (id) => id === 'form-leg')).toBe(1);
    expect(existsSync(visit.dir)).toBe(false);
    expect(readdirSync(visit.root).sort()).toEqual(['form-leg', 'other']);
    expect(deleteVisitRecording(visit.root, visit.sessionId, () => false)).toBe(1);
    expect(readdirSync(visit.root)).toEqual(['other']);
  });
});
