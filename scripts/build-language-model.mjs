#!/usr/bin/env node
// Builds the sandbox's small clinical language model from the corpus we wrote ourselves
// (sandbox/processing/language-model/clinical-corpus.txt): an ARPA trigram model (clinical.lm) and a
// pronunciation dictionary restricted to the corpus words found in cmudict (clinical.dict).
//
//   node scripts/build-language-model.mjs [--out DIR] [--cmudict PATH]
//
// Why a builder of our own rather than IRSTLM/SRILM: CI would need the apt package, and a trigram
// model over a few thousand words is small enough to compute exactly here. The smoothing is
// interpolated Witten-Bell, which needs no count-of-counts statistics (Kneser-Ney's discounts are
// unstable on a corpus this small). An interpolated model is written in ARPA back-off form exactly:
// a seen n-gram carries its interpolated probability, and the back-off weight of a history is its
// interpolation weight, so an unseen word gets weight × lower-order probability and every history
// still sums to one.
//
// The output is deterministic: sorted n-grams, fixed decimal places, no dates or paths in the files.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MODEL_DIR = join(ROOT, 'sandbox/processing/language-model');
const DEFAULT_CMUDICT = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';
const BOS = '<s>';
const EOS = '</s>';
const ORDER = 3;

function parseArgs(argv) {
  const args = { out: MODEL_DIR, cmudict: DEFAULT_CMUDICT, corpus: join(MODEL_DIR, 'clinical-corpus.txt') };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--out') args.out = resolve(value);
    else if (flag === '--cmudict') args.cmudict = resolve(value);
    else if (flag === '--corpus') args.corpus = resolve(value);
    else throw new Error(`unknown option ${flag} (use --out DIR, --cmudict PATH, --corpus PATH)`);
  }
  return args;
}

/** word → its pronunciation lines ("word PH ON ES", "word(2) ..."), in cmudict's order. */
function readCmudict(path) {
  const prons = new Map();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^(\S+?)(\(\d+\))?\s+(.+)$/.exec(line.trim());
    if (!match) continue;
    const [, word, variant = '', phones] = match;
    if (!prons.has(word)) prons.set(word, []);
    prons.get(word).push(`${word}${variant} ${phones.trim().split(/\s+/).join(' ')}`);
  }
  return prons;
}

/** The words of one corpus sentence, lowercase, punctuation removed (apostrophes and hyphens kept). */
function tokenize(sentence, prons) {
  const words = sentence
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[^a-z0-9'\- ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  // A hyphenated word stays whole when cmudict knows it ("x-ray"), else it is said as its parts.
  return words.flatMap((w) => (w.includes('-') && !prons.has(w) ? w.split('-').filter(Boolean) : [w]));
}

/**
 * Counts every n-gram (n ≤ ORDER) that lies wholly inside in-vocabulary words. A word missing from
 * cmudict cannot be recognized, so it is a gap: no n-gram spans it, and no false sentence boundary
 * is invented around it.
 */
function countNgrams(sentences, prons) {
  const counts = Array.from({ length: ORDER + 1 }, () => new Map());
  const oov = new Map();
  for (const sentence of sentences) {
    const tokens = [BOS, ...tokenize(sentence, prons), EOS].map((t) => {
      if (t === BOS || t === EOS || prons.has(t)) return t;
      oov.set(t, (oov.get(t) ?? 0) + 1);
      return null;
    });
    for (let n = 1; n <= ORDER; n += 1) {
      for (let i = 0; i + n <= tokens.length; i += 1) {
        const gram = tokens.slice(i, i + n);
        if (gram.some((t) => t === null)) continue;
        if (n === 1 && gram[0] === BOS) continue; // <s> is never predicted
        const key = gram.join(' ');
        counts[n].set(key, (counts[n].get(key) ?? 0) + 1);
      }
    }
  }
  return { counts, oov };
}

/** For each history (n-1 words) of the n-grams of one order: total count and distinct continuations. */
function historyStats(ngramCounts) {
  const stats = new Map();
  for (const [key, count] of ngramCounts) {
    const history = key.slice(0, key.lastIndexOf(' '));
    const s = stats.get(history) ?? { total: 0, types: 0 };
    s.total += count;
    s.types += 1;
    stats.set(history, s);
  }
  return stats;
}

function buildModel(counts) {
  const prob = Array.from({ length: ORDER + 1 }, () => new Map());
  const bow = Array.from({ length: ORDER + 1 }, () => new Map());

  // Unigrams: Witten-Bell towards the uniform distribution over every predictable word (T = V),
  // i.e. (c + 1) / (N + V).
  let total = 0;
  for (const c of counts[1].values()) total += c;
  const vocab = counts[1].size;
  for (const [word, c] of counts[1]) prob[1].set(word, (c + 1) / (total + vocab));

  const lowerProb = (n, words) => {
    // The model's probability of the last word given the previous n-1, backing off as the ARPA
    // reader will. Only called for n-grams whose lower orders exist (true for counted data).
    const key = words.join(' ');
    if (prob[n].has(key)) return prob[n].get(key);
    const history = words.slice(0, -1).join(' ');
    return (bow[n - 1].get(history) ?? 1) * lowerProb(n - 1, words.slice(1));
  };

  for (let n = 2; n <= ORDER; n += 1) {
    const stats = historyStats(counts[n]);
    for (const [history, { total: c, types: t }] of stats) bow[n - 1].set(history, t / (c + t));
    for (const [key, c] of counts[n]) {
      const words = key.split(' ');
      const { total: hc, types: ht } = stats.get(words.slice(0, -1).join(' '));
      const lower = lowerProb(n - 1, words.slice(1));
      prob[n].set(key, (c + ht * lower) / (hc + ht));
    }
  }
  return { prob, bow };
}

const compareGrams = (a, b) => {
  const [x, y] = [a.split(' '), b.split(' ')];
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return x.length - y.length;
};

const log10 = (p) => Math.log10(p).toFixed(5);

function writeArpa({ prob, bow }) {
  const unigrams = [...prob[1].keys(), BOS].sort(compareGrams);
  const lines = ['\\data\\', `ngram 1=${unigrams.length}`];
  for (let n = 2; n <= ORDER; n += 1) lines.push(`ngram ${n}=${prob[n].size}`);
  lines.push('');
  for (let n = 1; n <= ORDER; n += 1) {
    lines.push(`\\${n}-grams:`);
    const grams = n === 1 ? unigrams : [...prob[n].keys()].sort(compareGrams);
    for (const key of grams) {
      const p = key === BOS ? '-99.00000' : log10(prob[n].get(key));
      const b = n < ORDER && bow[n].has(key) ? `\t${log10(bow[n].get(key))}` : '';
      lines.push(`${p}\t${key}${b}`);
    }
    lines.push('');
  }
  lines.push('\\end\\', '');
  return lines.join('\n');
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const prons = readCmudict(args.cmudict);
  const sentences = readFileSync(args.corpus, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const { counts, oov } = countNgrams(sentences, prons);
  const model = buildModel(counts);

  const words = [...counts[1].keys()].filter((w) => w !== EOS).sort();
  const dict = words.flatMap((w) => prons.get(w)).join('\n') + '\n';

  mkdirSync(args.out, { recursive: true });
  writeFileSync(join(args.out, 'clinical.lm'), writeArpa(model));
  writeFileSync(join(args.out, 'clinical.dict'), dict);

  const sizes = [1, 2, 3].map((n) => counts[n].size).join('/');
  console.log(`${sentences.length} sentences, ${words.length} words, n-grams ${sizes} → ${args.out}`);
  if (oov.size > 0) {
    const list = [...oov.keys()].sort().join(', ');
    console.log(`not in cmudict, left out of the model: ${list}`);
  }
}

main();
