import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msFromOffset } from '../../src/shared/service';
import { defaultPocketsphinxConfig, type PocketsphinxConfig } from './pocketsphinx';
import { createRecognizer, recognize, UNRECOGNIZED } from './recognize';
import { addNoise, speechToolsMissing, synthesizeDialogue, VISIT, type Dialogue } from './test-speech';

const noSpeechTools = speechToolsMissing();
const setup = defaultPocketsphinxConfig();
const noPocketsphinx = 'missing' in setup ? `pocketsphinx unavailable: ${setup.missing}` : undefined;

let visit: Dialogue;
beforeAll(() => {
  if (!noSpeechTools) visit = synthesizeDialogue(VISIT);
});

/** Word error rate by edit distance over words. */
function wordErrorRate(reference: string[], hypothesis: string[]): number {
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= hypothesis.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1);
      row.push(Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, substitution));
    }
    previous = row;
  }
  return (previous[hypothesis.length] ?? 0) / reference.length;
}
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z' -]/g, '')
    .split(/[\s-]+/)
    .filter(Boolean);

describe('energy segmentation', () => {
  it('finds each turn of a conversation, with offsets within 150 ms of where it was spoken', async (ctx) => {
    ctx.skip(noSpeechTools !== undefined, noSpeechTools);
    const result = await recognize(visit.pcm, { asr: 'energy' });
    expect(result.engine).toBe('energy');
    expect(result.entries).toHaveLength(VISIT.length);
    result.entries.forEach((entry, i) => {
      const turn = visit.turns[i];
      expect(Math.abs(msFromOffset(entry.start_offset) - (turn?.startMs ?? 0))).toBeLessThan(150);
      expect(Math.abs(msFromOffset(entry.end_offset) - (turn?.endMs ?? 0))).toBeLessThan(150);
      expect(entry.transcript).toBe(UNRECOGNIZED);
    });
    expect(new Set(result.entries.map((e) => e.transcript_id)).size).toBe(VISIT.length);
    const spoken = visit.turns.reduce((sum, t) => sum + t.endMs - t.startMs, 0);
    expect(Math.abs(result.speechMs - spoken)).toBeLessThan(VISIT.length * 150);
  });

  it('finds nothing in silence or in steady room noise', async () => {
    const silence = Buffer.alloc(5 * 32_000);
    for (const pcm of [silence, addNoise(silence, 300)]) {
      const result = await recognize(pcm, { asr: 'energy' });
      expect(result).toEqual({ entries: [], engine: 'energy', speechMs: 0 });
    }
  });

  it('ignores a click but keeps a short word', async () => {
    const pcm = Buffer.alloc(3 * 32_000);
    for (let i = 0; i < 80; i += 1) pcm.writeInt16LE(i % 2 ? 20_000 : -20_000, 32_000 + i * 2); // 5 ms click
    const tone = (fromMs: number, ms: number) => {
      for (let s = 0; s < ms * 16; s += 1) {
        const value = Math.round(8000 * Math.sin((2 * Math.PI * 220 * s) / 16_000));
        pcm.writeInt16LE(value, (fromMs * 16 + s) * 2);
      }
    };
    tone(2000, 350);
    const result = await recognize(pcm, { asr: 'energy' });
    expect(result.entries).toHaveLength(1);
    expect(msFromOffset(result.entries[0]!.start_offset)).toBeGreaterThan(1900);
  });

  it('gives the same transcript for the same audio', async (ctx) => {
    ctx.skip(noSpeechTools !== undefined, noSpeechTools);
    const first = await recognize(visit.pcm, { asr: 'energy' });
    expect(await recognize(Buffer.from(visit.pcm), { asr: 'energy' })).toEqual(first);
  });
});

describe('pocketsphinx', () => {
  // How fast is a benchmark's figure, not this test's (issue 36): bench/recognizer-speed measures it
  // against a reference in the same run. A bound here failed on a machine half as fast (22 s).
  it('recognizes the clinical words of a one-minute visit, in the right turns', async (ctx) => {
    ctx.skip(noSpeechTools !== undefined, noSpeechTools);
    ctx.skip(noPocketsphinx !== undefined, noPocketsphinx);
    const started = performance.now();
    const result = await recognize(visit.pcm, { asr: 'pocketsphinx' });
    const elapsedMs = performance.now() - started;
    const audioMs = (visit.pcm.length / 32_000) * 1000;
    ctx.annotate(
      `${(audioMs / 1000).toFixed(1)} s of audio recognized in ${(elapsedMs / 1000).toFixed(1)} s`,
    );

    expect(result.engine).toBe('pocketsphinx');
    expect(result.entries).toHaveLength(VISIT.length);
    const said = (i: number) => result.entries[i]?.transcript.toLowerCase() ?? '';
    expect(said(1)).toContain('chest pain');
    expect(said(4)).toContain('blood pressure');
    expect(said(5)).toContain('oxygen saturation');
    expect(said(7)).toContain('penicillin');
    expect(said(14)).toContain('blood work');
    const wer = wordErrorRate(
      VISIT.flatMap((t) => words(t.text)),
      result.entries.flatMap((e) => words(e.transcript)),
    );
    ctx.annotate(`word error rate ${(wer * 100).toFixed(1)}%`);
    expect(wer).toBeLessThan(0.35);
  }, 120_000);

  it('is deterministic, and silent audio gives no entries', async (ctx) => {
    ctx.skip(noSpeechTools !== undefined, noSpeechTools);
    ctx.skip(noPocketsphinx !== undefined, noPocketsphinx);
    const clip = synthesizeDialogue(VISIT.slice(4, 6), 500);
    const first = await recognize(clip.pcm, { asr: 'pocketsphinx' });
    expect(await recognize(clip.pcm, { asr: 'pocketsphinx' })).toEqual(first);
    expect(first.entries.map((e) => e.transcript_id)).toEqual(['t1', 't2']);
    const silent = await recognize(addNoise(Buffer.alloc(3 * 32_000)), { asr: 'pocketsphinx' });
    expect(silent).toEqual({ entries: [], engine: 'pocketsphinx', speechMs: 0 });
  }, 30_000);
});

describe('engine choice and failures', () => {
  const missing = { missing: 'pocketsphinx_continuous is not installed' };
  const speech = addNoise(Buffer.alloc(2 * 32_000));
  for (let s = 8000; s < 24_000; s += 1) speech.writeInt16LE(Math.round(9000 * Math.sin(s / 5)), s * 2);

  it('auto falls back to energy segments when pocketsphinx is missing; pocketsphinx mode says why', async () => {
    const recognizer = createRecognizer({ pocketsphinx: missing });
    const auto = await recognizer(speech, { asr: 'auto' });
    expect(auto.engine).toBe('energy');
    expect(auto.entries.map((e) => e.transcript)).toEqual([UNRECOGNIZED]);
    await expect(recognizer(speech, { asr: 'pocketsphinx' })).rejects.toThrow(
      /pocketsphinx cannot run: pocketsphinx_continuous is not installed/,
    );
  });

  describe('with a stand-in decoder', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'fake-decoder-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    function fakeDecoder(name: string, script: string): PocketsphinxConfig {
      const binary = join(dir, name);
      writeFileSync(binary, `#!/bin/sh\n${script}\n`);
      chmodSync(binary, 0o755);
      return { binary, hmm: dir, lm: join(dir, 'x.lm'), dict: join(dir, 'x.dict') };
    }

    it('reports a decoder that fails, with its error line', async () => {
      const config = fakeDecoder(
        'fails',
        'echo \'ERROR: "acmod.c", line 78: no acoustic model\' >&2; exit 3',
      );
      await expect(createRecognizer({ pocketsphinx: config })(speech, { asr: 'auto' })).rejects.toThrow(
        /pocketsphinx exited with code 3: ERROR: "acmod.c", line 78: no acoustic model/,
      );
    });

    it('lets a decoder that a busy machine keeps waiting finish: its deadline counts the CPU it uses', async () => {
      // Two seconds by the clock and next to no CPU, past a budget of one second: a decoder the
      // machine's other work keeps waiting is slow, not stuck (a wall-clock deadline failed it).
      const config = fakeDecoder('starved', `sleep 2; echo 'hello 0.6 0.9 0.95'`);
      const starved = createRecognizer({ pocketsphinx: config, timeoutBaseMs: 1_000, timeoutPerAudioMs: 0 });
      const result = await starved(speech, { asr: 'pocketsphinx' });
      expect(result.entries.map((e) => e.transcript)).toEqual(['Hello.']);
    }, 20_000);

    it('stops a decoder that works past its CPU budget, and leaves no process behind', async () => {
      const pidFile = join(dir, 'pid-spins');
      const config = fakeDecoder('spins', `echo $$ > ${pidFile}; while :; do :; done`);
      // The wall clock far off: a busy machine gives the spinning decoder a small share of a core,
      // so its 0.3 s of CPU may take seconds, and the wall clock must not stop it first.
      const spinning = createRecognizer({
        pocketsphinx: config,
        timeoutBaseMs: 300,
        timeoutPerAudioMs: 0,
        wallClockFactor: 100,
      });
      await expect(spinning(speech, { asr: 'pocketsphinx' })).rejects.toThrow(
        /did not finish within 0\.3 s of CPU time/,
      );
      await expectGone(Number(readFileSync(pidFile, 'utf8')));
    }, 20_000);

    it('stops a decoder that hangs, at its deadline or at abort, and leaves no process behind', async () => {
      const pidFile = join(dir, 'pid');
      const config = fakeDecoder('hangs', `echo $$ > ${pidFile}; exec sleep 30`);
      // A hung decoder does no work: the wall clock stops it, here at the budget itself.
      const slow = createRecognizer({
        pocketsphinx: config,
        timeoutBaseMs: 300,
        timeoutPerAudioMs: 0,
        wallClockFactor: 1,
      });
      const started = Date.now();
      await expect(slow(speech, { asr: 'pocketsphinx' })).rejects.toThrow(/did not finish within/);
      expect(Date.now() - started).toBeLessThan(3_000);
      await expectGone(Number(readFileSync(pidFile, 'utf8')));

      const controller = new AbortController();
      const pending = createRecognizer({ pocketsphinx: config })(speech, {
        asr: 'pocketsphinx',
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 200);
      await expect(pending).rejects.toThrow(/aborted/);
      await expectGone(Number(readFileSync(pidFile, 'utf8')));
    });
  });
});

async function expectGone(pid: number): Promise<void> {
  for (let i = 0; i < 40; i += 1) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`decoder process ${pid} is still running`);
}
