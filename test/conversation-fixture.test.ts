import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectSpeech } from '../sandbox/processing/segmenter';

/**
 * The visit the fake microphone plays in end-to-end tests (e2e/fixtures/conversation.wav): its
 * turn times must be where the speech is, since tests judge the VAD and auto-pause against them.
 */
const wav = readFileSync('e2e/fixtures/conversation.wav');
const turns = JSON.parse(readFileSync('e2e/fixtures/conversation.turns.json', 'utf8')) as {
  sampleRate: number;
  totalMs: number;
  longSilence: { startMs: number; endMs: number };
  turns: { speaker: string; startMs: number; endMs: number }[];
};
const pcm = wav.subarray(44);

const haveTools = ['espeak-ng', 'sox', 'soxi'].every((tool) => spawnSync('which', [tool]).status === 0);

describe('the conversation fixture', () => {
  it('is 16 kHz mono 16-bit PCM of the length its turn file says', () => {
    expect(wav.subarray(0, 4).toString()).toBe('RIFF');
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(24)).toBe(turns.sampleRate);
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(Math.abs(pcm.length / 32 - turns.totalMs)).toBeLessThan(2);
  });

  it('has speech where the turn times say, within 150 ms, and none in the long silence', () => {
    const segments = detectSpeech(pcm);
    for (const turn of turns.turns) {
      const nearest = Math.min(...segments.map((s) => Math.abs(s.startMs - turn.startMs)));
      expect(nearest, `turn at ${turn.startMs} ms`).toBeLessThan(150);
    }
    const { startMs, endMs } = turns.longSilence;
    expect(endMs - startMs).toBeGreaterThanOrEqual(6_000); // longer than the recorder's 4 s auto-pause
    expect(segments.filter((s) => s.startMs > startMs + 200 && s.startMs < endMs - 200)).toEqual([]);
  });

  it('is never digital silence (a room is never that quiet)', () => {
    const { startMs, endMs } = turns.longSilence;
    let sumSquares = 0;
    for (let i = (startMs + 500) * 16; i < (endMs - 500) * 16; i++) sumSquares += pcm.readInt16LE(i * 2) ** 2;
    const rms = Math.sqrt(sumSquares / ((endMs - startMs - 1000) * 16)) / 32768;
    const dbfs = 20 * Math.log10(rms);
    expect(dbfs).toBeGreaterThan(-80);
    expect(dbfs).toBeLessThan(-50);
  });

  it('is rebuilt byte for byte by its committed script', (ctx) => {
    ctx.skip(!haveTools, 'espeak-ng and sox are not installed here (.ci/run installs them)');
    const out = mkdtempSync(join(tmpdir(), 'fixture-'));
    execFileSync(process.execPath, ['scripts/make-conversation-fixture.mjs', '--out', out]);
    expect(readFileSync(join(out, 'conversation.wav')).equals(wav)).toBe(true);
    expect(readFileSync(join(out, 'conversation.turns.json'), 'utf8')).toBe(
      readFileSync('e2e/fixtures/conversation.turns.json', 'utf8'),
    );
  });
});
