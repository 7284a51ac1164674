import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectSpeech } from '../sandbox/processing/segmenter';

/**
 * The telehealth visit of the end-to-end tests (issue 30; scripts/make-telehealth-fixture.mjs):
 * the clinician's microphone (headset, and speakers that hear the call) and the call, on one
 * timeline. The e2e judges every turn at the service against these times and files.
 */
const dir = 'e2e/fixtures';
const script = JSON.parse(readFileSync(join(dir, 'telehealth.turns.json'), 'utf8')) as {
  sampleRate: number;
  totalMs: number;
  echo: { gainDb: number; delayMs: number };
  patientOnly: { startMs: number; endMs: number };
  turns: { speaker: 'clinician' | 'patient'; source: string; startMs: number; endMs: number }[];
};
const files = ['clinician', 'patient', 'speakers'] as const;
const wav = Object.fromEntries(
  files.map((f) => [f, readFileSync(join(dir, `telehealth-${f}.wav`))]),
) as Record<(typeof files)[number], Buffer>;
const samples = (file: (typeof files)[number]) => {
  const pcm = wav[file].subarray(44);
  return new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength));
};
const haveTools = ['espeak-ng', 'sox', 'soxi'].every((tool) => spawnSync('which', [tool]).status === 0);

describe('the telehealth fixture', () => {
  it('is three 16 kHz mono 16-bit files of one length, the length its turn file says', () => {
    for (const file of files) {
      expect(wav[file].readUInt32LE(24), file).toBe(script.sampleRate);
      expect(wav[file].readUInt16LE(22), file).toBe(1);
      expect(wav[file].readUInt16LE(34), file).toBe(16);
      expect(wav[file].length, file).toBe(wav.clinician.length);
    }
    expect(Math.abs(samples('clinician').length / 16 - script.totalMs)).toBeLessThan(2);
  });

  it('has each speaker where the turn times say: the clinician on the microphone, the patient on the call', () => {
    for (const [file, speaker] of [
      ['clinician', 'clinician'],
      ['patient', 'patient'],
    ] as const) {
      const segments = detectSpeech(wav[file].subarray(44));
      const turns = script.turns.filter((t) => t.speaker === speaker);
      for (const turn of turns) {
        const nearest = Math.min(...segments.map((s) => Math.abs(s.startMs - turn.startMs)));
        expect(nearest, `${speaker} at ${turn.startMs} ms`).toBeLessThan(150);
      }
      // Nobody else speaks in a speaker's file: every segment starts inside one of their turns.
      for (const segment of segments)
        expect(
          turns.some((t) => segment.startMs >= t.startMs - 150 && segment.startMs <= t.endMs),
          `${file}: speech at ${segment.startMs} ms is one of the ${speaker}'s turns`,
        ).toBe(true);
    }
    // The patient alone for longer than the 4 s auto-pause, and turns 1.2 s apart otherwise.
    expect(script.patientOnly.endMs - script.patientOnly.startMs).toBeGreaterThan(8_000);
  });

  it('the speakers’ microphone is the headset’s plus the call, 6 dB quieter and 100 ms later', () => {
    const [headset, call, speakers] = [samples('clinician'), samples('patient'), samples('speakers')];
    const delay = (script.echo.delayMs / 1_000) * 16_000;
    const gain = 10 ** (script.echo.gainDb / 20);
    let residual = 0;
    let echo = 0;
    for (let k = delay; k < speakers.length; k++) {
      const echoed = gain * call[k - delay]!;
      residual += (speakers[k]! - headset[k]! - echoed) ** 2;
      echo += echoed ** 2;
    }
    // What is left is the call's faint line noise (in the call's file, not in the echo) and sox's
    // rounding: more than 40 dB under the echo.
    expect(10 * Math.log10(residual / echo)).toBeLessThan(-40);
  });

  it('is rebuilt byte for byte by its committed script', (ctx) => {
    ctx.skip(!haveTools, 'espeak-ng and sox are not installed here (.ci/run installs them)');
    const out = mkdtempSync(join(tmpdir(), 'telehealth-fixture-'));
    execFileSync(process.execPath, ['scripts/make-telehealth-fixture.mjs', '--out', out]);
    for (const file of files)
      expect(readFileSync(join(out, `telehealth-${file}.wav`)).equals(wav[file]), file).toBe(true);
    expect(readFileSync(join(out, 'telehealth.turns.json'), 'utf8')).toBe(
      readFileSync(join(dir, 'telehealth.turns.json'), 'utf8'),
    );
  });
});
