/**
 * Runs Debian's pocketsphinx 0.8 (`pocketsphinx_continuous`) as a child process on raw audio.
 *
 * 0.8's continuous tool reads only a file named by `-infile` (raw LINEAR16 unless the name ends in
 * ".wav"). `-infile /dev/stdin` fails under Node, whose child stdio is a socket pair, not a pipe, so
 * the audio goes through a private temp file that is removed as soon as the decoder is done. With
 * `-time yes` it prints, per utterance it finds, the hypothesis line and then one
 * `word start end confidence` line per word, in seconds from the start of the input.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childCpuMs } from './child-cpu';

export interface PocketsphinxConfig {
  binary: string;
  /** Acoustic model directory (mdef, means, ...). */
  hmm: string;
  lm: string;
  dict: string;
}

export interface RecognizedWord {
  word: string;
  startMs: number;
  endMs: number;
}

const BINARY_NAME = 'pocketsphinx_continuous';
const DEBIAN_MODEL = '/usr/share/pocketsphinx/model/en-us/en-us';

function findOnPath(name: string): string | undefined {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'];
  return dirs
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find((file) => existsSync(file));
}

/**
 * The committed clinical model: next to this file when run from source (Vitest, tsx). The bundled
 * sandbox runs from out/main (or a chunk folder below it), so the repository's copy is looked for
 * in the folders above, and finally under the working directory. In the packaged app those folders
 * are inside app.asar, which only Electron's own fs can read; electron-builder unpacks the model
 * beside it (asarUnpack in electron-builder.yml), where pocketsphinx, a separate program, can open it.
 */
export function findLanguageModelDir(
  here: string = dirname(fileURLToPath(import.meta.url)),
  cwd: string = process.cwd(),
): string | undefined {
  const candidates = [join(here, 'language-model')];
  for (let dir = here, up = 0; up < 4; dir = dirname(dir), up += 1) {
    candidates.push(join(dir, 'sandbox/processing/language-model'));
  }
  candidates.push(resolve(cwd, 'sandbox/processing/language-model'));
  return candidates
    .map(outsideAsar)
    .find((dir) => existsSync(join(dir, 'clinical.lm')) && existsSync(join(dir, 'clinical.dict')));
}

/** `…/resources/app.asar/x` → `…/resources/app.asar.unpacked/x`; other paths unchanged. */
function outsideAsar(path: string): string {
  return path.replace(/([\\/])app\.asar(?=[\\/]|$)/, '$1app.asar.unpacked');
}

/** The default setup, or the reason it cannot run here (binary, acoustic model or LM missing). */
export function defaultPocketsphinxConfig(): PocketsphinxConfig | { missing: string } {
  const binary = findOnPath(BINARY_NAME);
  if (!binary) return { missing: `${BINARY_NAME} is not installed (Debian: apt-get install pocketsphinx)` };
  if (!existsSync(join(DEBIAN_MODEL, 'mdef'))) {
    return { missing: `the acoustic model ${DEBIAN_MODEL} is missing (apt-get install pocketsphinx-en-us)` };
  }
  const lmDir = findLanguageModelDir();
  if (!lmDir)
    return { missing: 'the clinical language model (sandbox/processing/language-model) is missing' };
  return { binary, hmm: DEBIAN_MODEL, lm: join(lmDir, 'clinical.lm'), dict: join(lmDir, 'clinical.dict') };
}

/** Silence, breath and noise markers, not words. */
const FILLER = /^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+|\(null\))$/i;
const WORD_TIME_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\S+)$/;

/** The word lines of `-time yes` output; "word(2)" (an alternative pronunciation) becomes "word". */
export function parseWordTimes(stdout: string): RecognizedWord[] {
  const words: RecognizedWord[] = [];
  for (const line of stdout.split('\n')) {
    const match = WORD_TIME_LINE.exec(line.trim());
    if (!match) continue;
    const word = (match[1] ?? '').replace(/\(\d+\)$/, '');
    if (FILLER.test(word)) continue;
    words.push({ word, startMs: Number(match[2]) * 1000, endMs: Number(match[3]) * 1000 });
  }
  return words;
}

/**
 * Measured on a 63 s synthesized visit: skipping the flat-lexicon second pass and scoring 2 Gaussians
 * instead of 4 cut decoding from 7.8 s to 2.6 s with no loss of word accuracy (WER 17% either way).
 */
const SPEED_OPTIONS = { '-fwdflat': 'no', '-topn': '2', '-maxhmmpf': '3000' };
/** The decoder's own error lines kept for the Error message (its INFO log is long and not useful). */
const ERROR_LINES_KEPT = 3;

/** How often the decoder's CPU time is read. */
const CPU_CHECK_MS = 250;

/**
 * Decodes `pcm` and resolves with its words, times from the start of `pcm`. Rejects with an Error
 * when the process cannot start, exits non-zero, uses more than `timeoutMs` of CPU time (or runs
 * `wallClockFactor` times that by the clock), or `signal` aborts; the process is killed in every
 * one of those cases, so nothing is left running.
 *
 * The deadline counts the decoder's own work: on a machine busy with other things (a clinic
 * laptop, a CI run with two browsers recording) decoding takes longer by the clock without being
 * stuck, and the session it fails is a note the clinician never gets. Four decoders at once beside
 * the e2e suite's browsers ran past a wall-clock deadline of 41.6-44.6 s (session 27's CI). One
 * that hangs without working (blocked, stopped) is caught by the wall clock. Where the CPU time
 * cannot be read (no /proc) the CPU budget is a wall-clock one, as before.
 */
export async function runPocketsphinx(
  config: PocketsphinxConfig,
  pcm: Buffer,
  options: { timeoutMs: number; wallClockFactor: number; signal?: AbortSignal },
): Promise<RecognizedWord[]> {
  // The decoder reads a file: for the seconds it decodes, the audio is in a private temporary
  // folder (0700, the file 0600), removed as soon as it is done. A pipe would keep it off the disk,
  // but Node's child stdin is a socket, which pocketsphinx cannot open as /dev/stdin (ENXIO).
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-asr-'));
  try {
    const file = join(dir, 'audio.raw');
    await writeFile(file, pcm, { mode: 0o600 });
    return await decodeFile(config, file, options);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function decodeFile(
  config: PocketsphinxConfig,
  file: string,
  {
    timeoutMs,
    wallClockFactor,
    signal,
  }: { timeoutMs: number; wallClockFactor: number; signal?: AbortSignal },
): Promise<RecognizedWord[]> {
  return new Promise((resolvePromise, reject) => {
    if (signal?.aborted) return reject(new Error('speech recognition was aborted'));
    const args = Object.entries({
      '-infile': file,
      '-time': 'yes',
      '-hmm': config.hmm,
      '-lm': config.lm,
      '-dict': config.dict,
      ...SPEED_OPTIONS,
    }).flat();
    const child = spawn(config.binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const errorLines: string[] = [];
    let partialLine = '';
    let settled = false;

    const finish = (error: Error | undefined, words?: RecognizedWord[]) => {
      if (settled) return;
      settled = true;
      clearTimeout(wallTimer);
      clearInterval(cpuTimer);
      signal?.removeEventListener('abort', onAbort);
      if (error) {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        reject(error);
      } else {
        resolvePromise(words ?? []);
      }
    };
    const onAbort = () => finish(new Error('speech recognition was aborted'));
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const cpuReadable = childCpuMs(child.pid) !== undefined;
    const wallMs = cpuReadable ? timeoutMs * wallClockFactor : timeoutMs;
    const wallTimer = setTimeout(
      () => finish(new Error(`pocketsphinx did not finish within ${seconds(wallMs)}`)),
      wallMs,
    );
    const cpuTimer = setInterval(() => {
      const used = childCpuMs(child.pid);
      if (used !== undefined && used > timeoutMs)
        finish(new Error(`pocketsphinx did not finish within ${seconds(timeoutMs)} of CPU time`));
    }, CPU_CHECK_MS);
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      const lines = (partialLine + chunk.toString('utf8')).split('\n');
      partialLine = lines.pop() ?? '';
      errorLines.push(...lines.filter((l) => /^(ERROR|FATAL)/.test(l)));
      errorLines.splice(0, Math.max(0, errorLines.length - ERROR_LINES_KEPT));
    });
    child.on('error', (error) => finish(new Error(`pocketsphinx could not start: ${error.message}`)));
    child.on('close', (code, killedBy) => {
      if (code === 0) return finish(undefined, parseWordTimes(Buffer.concat(stdout).toString('utf8')));
      if (/^(ERROR|FATAL)/.test(partialLine)) errorLines.push(partialLine);
      const errors = errorLines.slice(-ERROR_LINES_KEPT).join('; ');
      const how = killedBy ? `was killed by ${killedBy}` : `exited with code ${code}`;
      finish(new Error(`pocketsphinx ${how}${errors ? `: ${errors}` : ''}`));
    });
  });
}
