import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultPocketsphinxConfig } from './pocketsphinx';
import { VISIT } from './test-speech';

const run = promisify(execFile);
const MODEL_DIR = join(import.meta.dirname, 'language-model');
const CMUDICT = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';
const noCmudict = existsSync(CMUDICT)
  ? undefined
  : `${CMUDICT} is missing (apt-get install pocketsphinx-en-us)`;
const setup = defaultPocketsphinxConfig();
const noPocketsphinx = 'missing' in setup ? `pocketsphinx unavailable: ${setup.missing}` : undefined;

const lm = readFileSync(join(MODEL_DIR, 'clinical.lm'), 'utf8');
const dict = readFileSync(join(MODEL_DIR, 'clinical.dict'), 'utf8');

/** The ARPA file as log10 probabilities and back-off weights per n-gram. */
function parseArpa(text: string) {
  const prob = new Map<string, number>();
  const bow = new Map<string, number>();
  const declared: number[] = [];
  const seen = [0, 0, 0, 0];
  let order = 0;
  for (const line of text.split('\n')) {
    const count = /^ngram (\d)=(\d+)$/.exec(line);
    if (count) declared[Number(count[1])] = Number(count[2]);
    const section = /^\\(\d)-grams:$/.exec(line);
    if (section) order = Number(section[1]);
    const fields = line.split('\t');
    if (order === 0 || fields.length < 2) continue;
    seen[order] = (seen[order] ?? 0) + 1;
    prob.set(fields[1] ?? '', Number(fields[0]));
    if (fields[2] !== undefined) bow.set(fields[1] ?? '', Number(fields[2]));
  }
  return { prob, bow, declared, seen };
}

describe('the clinical language model', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('is reproduced byte for byte by scripts/build-language-model.mjs', async (ctx) => {
    ctx.skip(noCmudict !== undefined, noCmudict);
    const out = mkdtempSync(join(tmpdir(), 'lm-'));
    dirs.push(out);
    await run(process.execPath, ['scripts/build-language-model.mjs', '--out', out]);
    expect(readFileSync(join(out, 'clinical.lm'), 'utf8')).toBe(lm);
    expect(readFileSync(join(out, 'clinical.dict'), 'utf8')).toBe(dict);
  });

  it('is small, and its dictionary holds exactly the words of the model', () => {
    const size =
      statSync(join(MODEL_DIR, 'clinical.lm')).size + statSync(join(MODEL_DIR, 'clinical.dict')).size;
    expect(size).toBeLessThan(400_000);
    const { prob } = parseArpa(lm);
    const unigrams = [...prob.keys()].filter((k) => !k.includes(' ') && k !== '<s>' && k !== '</s>');
    const dictWords = new Set(
      dict.split('\n').flatMap((l) => (l ? [l.split(' ')[0]?.replace(/\(\d+\)$/, '')] : [])),
    );
    expect([...dictWords].sort()).toEqual(unigrams.sort());
    for (const word of [
      'chest',
      'pain',
      'blood',
      'pressure',
      'penicillin',
      'ninety',
      'hundred',
      'saturation',
    ]) {
      expect(dictWords.has(word)).toBe(true);
    }
  });

  it('is a proper back-off model: counts match, and each history’s probabilities sum to one', () => {
    const { prob, bow, declared, seen } = parseArpa(lm);
    expect(seen.slice(1)).toEqual(declared.slice(1));
    const vocabulary = [...prob.keys()].filter((k) => !k.includes(' ') && k !== '<s>');
    const p = (words: string[]): number => {
      const key = words.join(' ');
      if (prob.has(key)) return 10 ** (prob.get(key) ?? 0);
      return 10 ** (bow.get(words.slice(0, -1).join(' ')) ?? 0) * p(words.slice(1));
    };
    const histories = [[], ['<s>'], ['blood'], ['the'], ['<s>', 'i'], ['blood', 'pressure'], ['out', 'of']];
    for (const history of histories) {
      const total = vocabulary.reduce((sum, w) => sum + p([...history, w]), 0);
      expect(total, history.join(' ')).toBeCloseTo(1, 3);
    }
  });

  it('was not written from the recognition tests’ script', () => {
    const normalize = (s: string) =>
      s
        .toLowerCase()
        .replace(/[^a-z ]/g, '')
        .trim();
    const corpus = new Set(
      readFileSync(join(MODEL_DIR, 'clinical-corpus.txt'), 'utf8').split('\n').map(normalize),
    );
    for (const turn of VISIT) expect(corpus.has(normalize(turn.text)), turn.text).toBe(false);
  });

  it('loads in pocketsphinx', async (ctx) => {
    ctx.skip(noPocketsphinx !== undefined, noPocketsphinx);
    if ('missing' in setup) return;
    const dir = mkdtempSync(join(tmpdir(), 'lm-load-'));
    dirs.push(dir);
    const audio = join(dir, 'silence.raw');
    writeFileSync(audio, Buffer.alloc(32_000));
    const args = ['-infile', audio, '-hmm', setup.hmm, '-lm', setup.lm, '-dict', setup.dict];
    const { stderr } = await run(setup.binary, args);
    const { declared } = parseArpa(lm);
    expect(stderr).toMatch(/LM of order 3/);
    expect(stderr).toContain(`#1-grams: ${declared[1]}`);
    expect(stderr).toContain(`#3-grams: ${declared[3]}`);
    expect(stderr).not.toMatch(/^(ERROR|FATAL|WARN)/m);
  });
});
