#!/usr/bin/env node
// Builds e2e/fixtures/conversation.wav (16 kHz mono 16-bit) and conversation.turns.json, the
// synthesized visit the fake microphone plays in end-to-end tests: two espeak-ng voices taking
// turns, short silences between turns, and one long silence in the middle (an exam without
// talking) that is long enough for the recorder to auto-pause. Deterministic: `sox -D` turns
// dithering off and `-R` makes the room noise repeatable, so the same espeak-ng and sox produce
// the same bytes.
// Run: node scripts/make-conversation-fixture.mjs [--out DIR]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// --out DIR writes elsewhere (the test rebuilds into a temp dir and compares bytes).
const outFlag = process.argv.indexOf('--out');
const OUT = outFlag > 0 ? process.argv[outFlag + 1] : 'e2e/fixtures';
const RATE = 16_000;
const VOICES = {
  clinician: ['-v', 'en-us+klatt', '-s', '165'],
  patient: ['-v', 'en-us+klatt3', '-s', '150'],
};

// [speaker, words, silence after the turn in ms]
const SCRIPT = [
  ['clinician', 'Good morning. What brings you in today?', 700],
  ['patient', 'I have had chest pain since yesterday, mostly when I climb stairs.', 800],
  ['clinician', 'Does the pain spread to your arm or your jaw?', 600],
  ['patient', 'No, it stays in the middle of my chest.', 900],
  ['clinician', 'Let me check your blood pressure and listen to your heart.', 8_000],
  [
    'clinician',
    'Your blood pressure is one hundred twenty over eighty, and your heart rate is seventy two.',
    700,
  ],
  ['patient', 'Is that normal?', 600],
  ['clinician', 'Yes. I would like to order an EKG and some blood work, and see you again next week.', 1_000],
];
const LEAD_IN_MS = 1_000;
/** Every file this script writes: 16 kHz, mono, 16-bit. */
const FORMAT = ['-r', String(RATE), '-c', '1', '-b', '16'];

const work = mkdtempSync(join(tmpdir(), 'conversation-'));
try {
  const pieces = [];
  const turns = [];
  let at = LEAD_IN_MS;
  const silence = (ms, name) => {
    const file = join(work, `${name}.wav`);
    execFileSync('sox', ['-D', '-n', ...FORMAT, file, 'trim', '0', String(ms / 1000)]);
    return file;
  };
  pieces.push(silence(LEAD_IN_MS, 'lead-in'));
  SCRIPT.forEach(([speaker, words, pauseMs], i) => {
    const raw = join(work, `turn${i}-raw.wav`);
    const turn = join(work, `turn${i}.wav`);
    execFileSync('espeak-ng', [...VOICES[speaker], '-w', raw, words]);
    // 16 kHz mono 16-bit, with espeak's own leading and trailing silence trimmed so the turn
    // times below are where speech is.
    execFileSync('sox', [
      '-D',
      raw,
      ...FORMAT,
      turn,
      'silence',
      '1',
      '0.02',
      '0.5%',
      'reverse',
      'silence',
      '1',
      '0.02',
      '0.5%',
      'reverse',
    ]);
    const seconds = Number(execFileSync('soxi', ['-D', turn], { encoding: 'utf8' }).trim());
    const durationMs = Math.round(seconds * 1000);
    turns.push({ speaker, words, startMs: at, endMs: at + durationMs });
    at += durationMs + pauseMs;
    pieces.push(turn, silence(pauseMs, `pause${i}`));
  });
  // A quiet room (pink noise around -55 dBFS) under everything: real microphones never deliver
  // digital silence, and the app warns about a dead microphone when they do.
  const speech = join(work, 'speech.wav');
  const room = join(work, 'room.wav');
  execFileSync('sox', ['-D', ...pieces, speech]);
  const seconds = execFileSync('soxi', ['-D', speech], { encoding: 'utf8' }).trim();
  execFileSync('sox', ['-R', '-D', '-n', ...FORMAT, room, 'synth', seconds, 'pinknoise', 'vol', '0.002']);
  execFileSync('sox', ['-R', '-D', '-m', '-v', '1', speech, '-v', '1', room, join(OUT, 'conversation.wav')]);
  const totalMs = Math.round(
    Number(execFileSync('soxi', ['-D', join(OUT, 'conversation.wav')], { encoding: 'utf8' }).trim()) * 1000,
  );
  writeFileSync(
    join(OUT, 'conversation.turns.json'),
    `${JSON.stringify({ sampleRate: RATE, totalMs, longSilence: { startMs: turns[4].endMs, endMs: turns[5].startMs }, turns }, null, 2)}\n`,
  );
  console.log(
    `wrote ${OUT}/conversation.wav (${totalMs} ms, ${readFileSync(join(OUT, 'conversation.wav')).length} bytes) and its turn times`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
