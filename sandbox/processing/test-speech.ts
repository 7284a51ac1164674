/**
 * Test support: speech synthesized at test time with espeak-ng and sox, laid out as a conversation
 * with known turn boundaries. espeak-ng's Klatt voices are used because pocketsphinx's acoustic model
 * copes with them far better than with the default formant voice. `sox -D` (no dither) and the fixed
 * noise generator keep every run byte-identical.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUDIO_FORMAT } from '../limits';

export interface Turn {
  text: string;
  /** espeak-ng voice; the default is a male Klatt voice. */
  voice?: string;
  /** Silence before this turn. */
  pauseMs: number;
}

export interface Dialogue {
  pcm: Buffer;
  /** Where each turn's speech really starts and ends, in ms from the start of `pcm`. */
  turns: { startMs: number; endMs: number; text: string }[];
}

function installed(command: string): boolean {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Why speech cannot be synthesized here, or undefined when espeak-ng and sox are both installed. */
export function speechToolsMissing(): string | undefined {
  const missing = ['espeak-ng', 'sox'].filter((c) => !installed(c));
  return missing.length > 0
    ? `${missing.join(' and ')} not installed, so no speech can be synthesized`
    : undefined;
}

/** One utterance as LINEAR16 16 kHz mono, leading and trailing silence trimmed. */
export function synthesize(text: string, voice = 'en-us+klatt', dir?: string): Buffer {
  const work = dir ?? mkdtempSync(join(tmpdir(), 'speech-'));
  try {
    const wav = join(work, 'utterance.wav');
    const raw = join(work, 'utterance.raw');
    execFileSync('espeak-ng', ['-v', voice, '-s', '150', '-w', wav, text]);
    // prettier-ignore
    execFileSync('sox', ['-D', wav, '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-t', 'raw', raw,
      'gain', '-n', '-3', 'silence', '1', '0.01', '0.5%', 'reverse', 'silence', '1', '0.01', '0.5%', 'reverse']);
    return readFileSync(raw);
  } finally {
    if (!dir) rmSync(work, { recursive: true, force: true });
  }
}

/** Deterministic room noise at about -60 dBFS, so silence is not digital zero. */
export function addNoise(pcm: Buffer, amplitude = 40, seed = 7): Buffer {
  const out = Buffer.from(pcm);
  let state = seed;
  for (let i = 0; i + 1 < out.length; i += 2) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    const noise = (state % (2 * amplitude + 1)) - amplitude;
    out.writeInt16LE(Math.max(-32768, Math.min(32767, out.readInt16LE(i) + noise)), i);
  }
  return out;
}

/** The turns one after another with their pauses, plus `trailingMs` of silence, over light noise. */
export function synthesizeDialogue(turns: Turn[], trailingMs = 1_000): Dialogue {
  const work = mkdtempSync(join(tmpdir(), 'dialogue-'));
  try {
    const parts: Buffer[] = [];
    const placed: Dialogue['turns'] = [];
    let bytes = 0;
    const silence = (ms: number) => Buffer.alloc(Math.round((ms * AUDIO_FORMAT.bytesPerSecond) / 2000) * 2);
    for (const turn of turns) {
      const pause = silence(turn.pauseMs);
      const speech = synthesize(turn.text, turn.voice, work);
      const startMs = ((bytes + pause.length) / AUDIO_FORMAT.bytesPerSecond) * 1000;
      parts.push(pause, speech);
      bytes += pause.length + speech.length;
      placed.push({ startMs, endMs: (bytes / AUDIO_FORMAT.bytesPerSecond) * 1000, text: turn.text });
    }
    parts.push(silence(trailingMs));
    return { pcm: addNoise(Buffer.concat(parts)), turns: placed };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const DOCTOR = 'en-us+klatt';
const PATIENT = 'en-us+klatt3';

/**
 * A one-minute visit for the recognition tests. Written for the tests, separately from the language
 * model's corpus (language-model.test.ts checks that none of these sentences is in it), using words
 * the model knows except for a few ("cigarettes", "beer") that a real visit would contain too.
 */
export const VISIT: Turn[] = [
  { voice: DOCTOR, pauseMs: 600, text: 'Hello, what brings you in this morning?' },
  { voice: PATIENT, pauseMs: 900, text: 'I have had chest pain and shortness of breath since yesterday.' },
  { voice: DOCTOR, pauseMs: 800, text: 'Does the pain go down your arm?' },
  { voice: PATIENT, pauseMs: 1000, text: 'Yes, it goes down my left arm when I walk up the stairs.' },
  { voice: DOCTOR, pauseMs: 1200, text: 'Your blood pressure is one hundred thirty over eighty five.' },
  {
    voice: DOCTOR,
    pauseMs: 900,
    text: 'Your heart rate is ninety two and your oxygen saturation is ninety six percent.',
  },
  { voice: DOCTOR, pauseMs: 800, text: 'Are you allergic to any medications?' },
  { voice: PATIENT, pauseMs: 900, text: 'I am allergic to penicillin.' },
  { voice: DOCTOR, pauseMs: 800, text: 'Do you smoke or drink alcohol?' },
  {
    voice: PATIENT,
    pauseMs: 900,
    text: 'I smoke about ten cigarettes a day and I drink beer on the weekend.',
  },
  { voice: DOCTOR, pauseMs: 800, text: 'What medications do you take at home?' },
  { voice: PATIENT, pauseMs: 900, text: 'I take aspirin and insulin every day.' },
  { voice: DOCTOR, pauseMs: 1000, text: 'I am going to listen to your heart and lungs now.' },
  { voice: DOCTOR, pauseMs: 2000, text: 'Your lungs are clear and your heart has a regular rhythm.' },
  { voice: DOCTOR, pauseMs: 900, text: 'We will check some blood work and get a chest x-ray today.' },
  { voice: DOCTOR, pauseMs: 700, text: 'I also want you to see a cardiologist next week.' },
];
