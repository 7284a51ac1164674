/**
 * The source files Chromium's fake microphone plays, and sox's 16 kHz rendering of each (the
 * reference every capture is compared with). All made with `sox -D` (no dither) and espeak-ng, so
 * two runs build the same bytes.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { SPEECH_TURNS } from '../speech-turns';

export const OUTPUT_RATE = 16_000;

/** The tone file: where each part starts and ends, in seconds. */
export const TONE_LAYOUT = {
  /** Lead-in silence: the capture may open a moment after the fake device starts the file. */
  lead: 0.3,
  /** A 1 kHz marker in the pass band, to align the capture and check its gain. */
  marker: [0.3, 0.8] as const,
  /** The 10 kHz tone, which must not come out (it aliases to 6 kHz at 16 kHz). */
  tone: [1.3, 4.3] as const,
  total: 4.8,
  markerHz: 1_000,
  toneHz: 10_000,
  aliasHz: OUTPUT_RATE - 10_000,
  /** Peak amplitude of marker and tone: −6 dBFS. */
  amplitude: 0.5,
};

const RAW_F32 = ['-t', 'raw', '-e', 'floating-point', '-b', '32', '-c', '1'];
const WAV16 = ['-b', '16', '-e', 'signed-integer', '-c', '1'];

function sox(args: string[]): Buffer {
  return execFileSync('sox', ['-D', ...args], { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** espeak-ng's speech (22,050 Hz), joined into one file. */
export function speech22k(dir: string): string {
  const parts = SPEECH_TURNS.map(([voice, text], k) => {
    const file = join(dir, `turn${k}.wav`);
    execFileSync('espeak-ng', ['-v', voice, '-w', file, text]);
    return file;
  });
  const joined = join(dir, 'speech-22050.wav');
  sox([...parts, joined]);
  return joined;
}

/** `source` at `rate`, 16-bit, by sox's very-high-quality resampler. */
export function speechAt(dir: string, source: string, rate: number): string {
  const file = join(dir, `speech-${rate}.wav`);
  sox([source, '-r', String(rate), ...WAV16, file, 'rate', '-v']);
  return file;
}

/** Silence, the 1 kHz marker, silence, the 10 kHz tone, silence (TONE_LAYOUT), 16-bit at `rate`. */
export function toneAt(dir: string, rate: number): string {
  const { lead, marker, tone, total, markerHz, toneHz, amplitude } = TONE_LAYOUT;
  const gainDb = (20 * Math.log10(amplitude)).toFixed(4);
  const part = (name: string, seconds: number, hz?: number): string => {
    const file = join(dir, `tone-${rate}-${name}.wav`);
    const synth = hz
      ? [
          'synth',
          String(seconds),
          'sine',
          String(hz),
          'gain',
          gainDb,
          'fade',
          'h',
          '0.01',
          String(seconds),
          '0.01',
        ]
      : ['trim', '0', String(seconds)];
    sox(['-n', '-r', String(rate), ...WAV16, file, ...synth]);
    return file;
  };
  const file = join(dir, `tone-${rate}.wav`);
  sox([
    part('lead', lead),
    part('marker', marker[1] - marker[0], markerHz),
    part('gap', tone[0] - marker[1]),
    part('tone', tone[1] - tone[0], toneHz),
    part('tail', total - tone[1]),
    file,
  ]);
  return file;
}

/** The reference: sox `rate -v` of the same file to 16 kHz, as float (not re-quantized). */
export function soxReference(file: string): Float32Array {
  return readFloat(sox([file, ...RAW_F32, '-r', String(OUTPUT_RATE), '-', 'rate', '-v']));
}

export function durationSeconds(file: string): number {
  return Number(execFileSync('soxi', ['-D', file], { encoding: 'utf8' }));
}

export function fileRate(file: string): number {
  return Number(execFileSync('soxi', ['-r', file], { encoding: 'utf8' }));
}

function readFloat(bytes: Buffer): Float32Array {
  const copy = new Float32Array(bytes.length / 4);
  new Uint8Array(copy.buffer).set(bytes);
  return copy;
}

/** The worklet's Int16 LE samples (base64 from the page) as floats on sox's scale (÷ 32,768). */
export function int16Base64ToFloat(base64: string): Float32Array {
  // A copy: Buffer.from() may hand back a slice of its pool at an odd offset.
  const samples = new Int16Array(Uint8Array.from(Buffer.from(base64, 'base64')).buffer);
  return Float32Array.from(samples, (v) => v / 32_768);
}
