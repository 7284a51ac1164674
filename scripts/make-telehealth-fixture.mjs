#!/usr/bin/env node
// Builds the telehealth visit of the end-to-end tests (issue 30): the clinician at this computer
// and the patient on a video call, as two files on one timeline, 16 kHz mono 16-bit:
//   telehealth-clinician.wav  the microphone with a headset: the clinician's turns over a quiet room
//   telehealth-patient.wav    the call: the patient's turns (a second espeak-ng voice), played by a
//                             "call" tab whose sound the app captures
//   telehealth-speakers.wav   the microphone with speakers instead: the clinician's turns and the
//                             patient's voice as the speakers play it into the room (an echo,
//                             ECHO_GAIN_DB below the call's level, ECHO_DELAY_MS after it)
// and telehealth.turns.json with every turn's speaker, source and times. The patient speaks alone
// for longer than the recorder's auto-pause delay (patientOnly): the recording must not pause then.
// Deterministic like make-conversation-fixture.mjs: `sox -D` (no dither) and `-R` (repeatable noise).
// Run: node scripts/make-telehealth-fixture.mjs [--out DIR]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const outFlag = process.argv.indexOf('--out');
const OUT = outFlag > 0 ? process.argv[outFlag + 1] : 'e2e/fixtures';
const RATE = 16_000;
const VOICES = {
  clinician: ['-v', 'en-us+klatt', '-s', '165'],
  // A second voice, unlike the clinician's and the conversation fixture's patient.
  patient: ['-v', 'en-gb+f3', '-s', '150'],
};
/** Where each speaker is heard: the clinician by the microphone, the patient through the call. */
const SOURCE = { clinician: 'microphone', patient: 'call' };

// [speaker, words, silence after the turn in ms]. A turn of one speaker ends 1.2 s before the other's
// begins: the call tab starts a moment after the microphone, and its echo in telehealth-speakers.wav
// comes ECHO_DELAY_MS later still; neither may run into the next turn, so each turn can be judged
// on its own at the service.
const SCRIPT = [
  ['clinician', 'Good afternoon. Can you hear me all right?', 1_200],
  ['patient', 'Yes, I can hear you. Thank you for seeing me by video.', 1_200],
  ['clinician', 'What has been bothering you?', 1_200],
  // The patient alone, for longer than the 4 s auto-pause delay: the call must keep it recording.
  ['patient', 'I have had a cough for about two weeks, and it is worse at night.', 600],
  ['patient', 'Sometimes I bring up yellow phlegm, and I feel tired all day.', 1_200],
  ['clinician', 'Have you had a fever, or any trouble breathing?', 1_200],
  ['patient', 'A low fever for the first few days, but my breathing is fine.', 1_200],
  ['clinician', 'I will send a prescription to your pharmacy and see you again next week.', 1_500],
];
const LEAD_IN_MS = 1_000;
/**
 * The speakers' echo as the microphone hears it: the patient's voice 6 dB under its level in the
 * call (laptop speakers at a normal volume, the microphone half a metre away), 100 ms into the
 * microphone's file after the same words in the call's. The call tab starts playing as the app's
 * microphone opens (e2e/support/call-tab.ts), a few tens of ms apart, so the echo reaches the
 * microphone after the call tab plays the words, as in a room, where sound leaves the speakers
 * before it reaches the microphone: tens of ms later (the speakers' buffers and the air).
 */
const ECHO_GAIN_DB = -6;
const ECHO_DELAY_MS = 100;
const FORMAT = ['-r', String(RATE), '-c', '1', '-b', '16'];

const work = mkdtempSync(join(tmpdir(), 'telehealth-'));
const sox = (...args) => execFileSync('sox', args);
const secondsOf = (file) => Number(execFileSync('soxi', ['-D', file], { encoding: 'utf8' }).trim());
try {
  const silence = (ms, name) => {
    const file = join(work, `${name}.wav`);
    sox('-D', '-n', ...FORMAT, file, 'trim', '0', String(ms / 1000));
    return file;
  };
  // Each speaker's track: their turns, silence while the other speaks.
  const tracks = {
    clinician: [silence(LEAD_IN_MS, 'lead-in-c')],
    patient: [silence(LEAD_IN_MS, 'lead-in-p')],
  };
  const turns = [];
  let at = LEAD_IN_MS;
  SCRIPT.forEach(([speaker, words, pauseMs], i) => {
    const raw = join(work, `turn${i}-raw.wav`);
    const turn = join(work, `turn${i}.wav`);
    execFileSync('espeak-ng', [...VOICES[speaker], '-w', raw, words]);
    // espeak's own leading and trailing silence trimmed, so the turn times are where speech is.
    sox(
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
    );
    const durationMs = Math.round(secondsOf(turn) * 1000);
    turns.push({ speaker, source: SOURCE[speaker], words, startMs: at, endMs: at + durationMs });
    at += durationMs + pauseMs;
    const other = speaker === 'clinician' ? 'patient' : 'clinician';
    tracks[speaker].push(turn, silence(pauseMs, `pause${i}-${speaker}`));
    tracks[other].push(silence(durationMs + pauseMs, `gap${i}-${other}`));
  });
  const clinician = join(work, 'clinician.wav');
  const patient = join(work, 'patient.wav');
  sox('-D', ...tracks.clinician, clinician);
  const samples = Number(execFileSync('soxi', ['-s', clinician], { encoding: 'utf8' }).trim());
  // The same length to the sample (each silence rounds on its own).
  sox('-D', ...tracks.patient, patient, 'trim', '0', `${samples}s`);
  const seconds = String(secondsOf(clinician));

  // The room under the microphone (pink noise about -55 dBFS, as in the conversation fixture), and
  // the call's own faint line noise (about -75 dBFS): neither is ever digital silence.
  const room = join(work, 'room.wav');
  const line = join(work, 'line.wav');
  sox('-R', '-D', '-n', ...FORMAT, room, 'synth', seconds, 'pinknoise', 'vol', '0.002');
  sox('-R', '-D', '-n', ...FORMAT, line, 'synth', seconds, 'whitenoise', 'vol', '0.0002');
  sox('-R', '-D', '-m', '-v', '1', clinician, '-v', '1', room, join(OUT, 'telehealth-clinician.wav'));
  sox('-R', '-D', '-m', '-v', '1', patient, '-v', '1', line, join(OUT, 'telehealth-patient.wav'));
  // Speakers: the patient's track delayed and quieter, into the microphone with the clinician.
  const echo = join(work, 'echo.wav');
  sox(
    '-D',
    patient,
    echo,
    'pad',
    String(ECHO_DELAY_MS / 1000),
    'trim',
    '0',
    seconds,
    'vol',
    `${ECHO_GAIN_DB}dB`,
  );
  sox(
    '-R',
    '-D',
    '-m',
    '-v',
    '1',
    clinician,
    '-v',
    '1',
    echo,
    '-v',
    '1',
    room,
    join(OUT, 'telehealth-speakers.wav'),
  );

  const totalMs = Math.round(secondsOf(join(OUT, 'telehealth-clinician.wav')) * 1000);
  const patientOnly = { startMs: turns[3].startMs, endMs: turns[4].endMs };
  writeFileSync(
    join(OUT, 'telehealth.turns.json'),
    `${JSON.stringify({ sampleRate: RATE, totalMs, echo: { gainDb: ECHO_GAIN_DB, delayMs: ECHO_DELAY_MS }, patientOnly, turns }, null, 2)}\n`,
  );
  console.log(
    `wrote ${OUT}/telehealth-{clinician,patient,speakers}.wav (${totalMs} ms) and their turn times`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
