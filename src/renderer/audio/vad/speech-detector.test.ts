import { Silero } from '@ricky0123/vad-web/dist/models';
import * as ort from 'onnxruntime-web/wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import fixture from '../../../../e2e/fixtures/conversation.turns.json';
import { FRAME_SAMPLES, SERVICE_SAMPLE_RATE } from '../../../shared/audio-format';
import { SILERO_FRAME_SAMPLES, SpeechDetector, type ChunkVerdict } from './speech-detector';
import { DEFAULT_SPEECH_DETECTOR_OPTIONS, type SpeechDetectorOptions } from './speech-detector-options';
import {
  CHUNK_MS,
  FIXTURE_TOLERANCE_MS,
  HEAVY_MS,
  classifyInBlocks,
  describeOnsets,
  loadVisitRecording,
  onsets,
} from './visit-recording.test-support';

let modelBytes: ArrayBuffer;
let recording: Float32Array;

function detector(options?: SpeechDetectorOptions): Promise<SpeechDetector> {
  return SpeechDetector.create({ ort, modelBytes, ...(options ? { options } : {}) });
}

beforeAll(async () => {
  ({ modelBytes, recording } = await loadVisitRecording());
});

async function classifyVisit(options?: SpeechDetectorOptions): Promise<ChunkVerdict[]> {
  const loading = performance.now();
  const vad = await detector(options);
  const started = performance.now();
  const { verdicts } = await classifyInBlocks(vad, recording, [FRAME_SAMPLES]);
  const perChunk = (performance.now() - started) / verdicts.length;
  console.log(
    `speech detector: loaded in ${(started - loading).toFixed(0)} ms, ` +
      `${perChunk.toFixed(2)} ms per 100 ms chunk (${verdicts.length} chunks)`,
  );
  await vad.dispose();
  return verdicts;
}

describe('SpeechDetector on the recorded visit, in 100 ms chunks', () => {
  let verdicts: ChunkVerdict[];
  const { redemptionMs } = DEFAULT_SPEECH_DETECTOR_OPTIONS;
  const chunkStart = (k: number) => k * CHUNK_MS;
  const inTurn = (ms: number) => fixture.turns.some((t) => ms >= t.startMs && ms < t.endMs);

  beforeAll(async () => {
    verdicts = await classifyVisit();
  }, HEAVY_MS);

  // What "on time" means for a chunked flag: the recorder sends or holds whole chunks, so what counts
  // is how much of a turn's beginning falls in chunks not flagged as speech. For each turn, take the
  // first flagged chunk from the one holding the onset on: the turn's first (start of that chunk −
  // onset) ms went unflagged; negative means the chunk holding the onset was already flagged. That is
  // the chunk holding the onset or the next, or the one after when the onset is late in its chunk.
  // The recorder's 600 ms pre-roll covers what a late flag misses; 150 ms keeps a wide margin.
  it('flags every turn within 150 ms of its first word (default options)', () => {
    const list = onsets(verdicts);
    console.log(`onsets (unflagged start of each turn), defaults: ${describeOnsets(list)}`);
    for (const o of list) expect(o.lateMs, `turn at ${o.startMs} ms`).toBeLessThanOrEqual(150);
    // A carried-over flag proves nothing about onset detection; the first turn and the one after the
    // long silence must have been picked up from silence (the next test covers every turn that way).
    expect(list[0]!.carried).toBe(false);
    expect(list.find((o) => o.startMs === fixture.longSilence.endMs)!.carried).toBe(false);
  });

  it(
    'picks up every turn from silence within 150 ms when the redemption is too short to bridge turns',
    async () => {
      const shortest = Math.min(...fixture.turns.slice(1).map((t, k) => t.startMs - fixture.turns[k]!.endMs));
      const options = { ...DEFAULT_SPEECH_DETECTOR_OPTIONS, redemptionMs: 100 };
      expect(options.redemptionMs + 300).toBeLessThan(shortest);
      const list = onsets(await classifyVisit(options));
      console.log(`onsets (unflagged start of each turn), redemption 100 ms: ${describeOnsets(list)}`);
      for (const o of list) {
        expect(o.carried, `turn at ${o.startMs} ms`).toBe(false);
        expect(o.lateMs, `turn at ${o.startMs} ms`).toBeLessThanOrEqual(150);
      }
    },
    HEAVY_MS,
  );

  // The hangover (redemptionMs, plus a frame and the model's own decay) is by design; after it, a
  // chunk wholly inside the silence must not be speech, or the recorder would never auto-pause.
  it('is silent in the 8 s pause once the redemption has run out', () => {
    const { startMs, endMs } = fixture.longSilence;
    const from = startMs + redemptionMs + 200;
    const to = endMs - FIXTURE_TOLERANCE_MS;
    const inside = verdicts
      .map((v, k) => ({ v, k }))
      .filter(({ k }) => chunkStart(k) >= from && chunkStart(k + 1) <= to);
    expect(inside.length).toBeGreaterThan(60);
    expect(inside.filter(({ v }) => v.speech).map(({ k }) => chunkStart(k))).toEqual([]);
    // Room noise alone stays far from the thresholds, not just under them.
    expect(Math.max(...inside.map(({ v }) => v.probability))).toBeLessThan(0.05);
  });

  it('is silent before the first word and wherever no one has spoken for longer than the redemption', () => {
    const ends = [0, ...fixture.turns.map((t) => t.endMs)];
    const starts = [...fixture.turns.map((t) => t.startMs), fixture.totalMs + FIXTURE_TOLERANCE_MS];
    const flagged = verdicts
      .map((v, k) => ({ v, k }))
      .filter(({ v, k }) => {
        const gap = ends.findIndex((end, g) => chunkStart(k) >= end && chunkStart(k + 1) <= starts[g]!);
        if (gap < 0 || !v.speech) return false;
        const hangoverEnd = gap === 0 ? 0 : ends[gap]! + redemptionMs + 200;
        return chunkStart(k) >= hangoverEnd && chunkStart(k + 1) <= starts[gap]! - FIXTURE_TOLERANCE_MS;
      });
    expect(flagged.map(({ k }) => chunkStart(k))).toEqual([]);
  });

  // Agreement with the turn times, chunk by chunk (a chunk is "speech" when its midpoint is in a turn).
  // It cannot reach 100%: the redemption keeps the flag up for ~0.6 s after each turn, by design.
  it('agrees with the turn timing chunk by chunk', () => {
    let agree = 0;
    let speechChunks = 0;
    let speechFlagged = 0;
    verdicts.forEach((v, k) => {
      const truth = inTurn(chunkStart(k) + CHUNK_MS / 2);
      if (v.speech === truth) agree++;
      if (truth) speechChunks++;
      if (truth && v.speech) speechFlagged++;
    });
    const agreement = agree / verdicts.length;
    const recall = speechFlagged / speechChunks;
    // How long the flag outlasts each turn: the redemption at work (a turn bridged to the next shows
    // as the gap to it).
    const held = fixture.turns.map((t) => {
      let k = Math.floor(t.endMs / CHUNK_MS);
      while (verdicts[k]?.speech && !inTurn(chunkStart(k + 1))) k++;
      return chunkStart(k) - t.endMs;
    });
    console.log(
      `agreement ${(agreement * 100).toFixed(1)}% of ${verdicts.length} chunks; ` +
        `speech chunks flagged ${(recall * 100).toFixed(1)}%; flag held after each turn: ${held.join(', ')} ms`,
    );
    // Measured 87.4% and 100% on this fixture; the floors leave room for float drift across platforms.
    expect(agreement).toBeGreaterThan(0.85);
    expect(recall).toBeGreaterThan(0.97);
  });
});

describe('the energy gate (the model is not asked about quiet frames while nobody speaks)', () => {
  it(
    'answers for 30 % of the visit or more, and every turn is flagged as early as without it, the long silence as silent',
    async () => {
      const run = async (noEnergyGate: boolean) => {
        const vad = await SpeechDetector.create({ ort, modelBytes, noEnergyGate, noSpeechHold: true });
        const { verdicts } = await classifyInBlocks(vad, recording, [FRAME_SAMPLES]);
        await vad.dispose();
        return { verdicts, frames: { ...vad.frames } };
      };
      const gated = await run(false);
      const reference = await run(true);
      const share = gated.frames.gated / (gated.frames.gated + gated.frames.modelled);
      console.log(
        `energy gate: ${gated.frames.gated} of ${gated.frames.gated + gated.frames.modelled} frames ` +
          `(${(share * 100).toFixed(0)} %) answered without the model; onsets gated ${describeOnsets(onsets(gated.verdicts))}`,
      );
      expect(reference.frames.gated).toBe(0);
      // Measured 33 %: the fixture is ~40 % room noise, less the quiet frames the model still hears.
      expect(share).toBeGreaterThan(0.3);
      const late = onsets(gated.verdicts).map((o, k) => o.lateMs - onsets(reference.verdicts)[k]!.lateMs);
      expect(
        late.every((ms) => ms <= 0),
        `turns flagged later with the gate: ${late.join(', ')} ms`,
      ).toBe(true);
      // Every chunk of a turn that the model alone flags, the gated detector flags too.
      const missed = reference.verdicts.filter((v, k) => v.speech && !gated.verdicts[k]!.speech).length;
      expect(missed).toBe(0);
      const { startMs, endMs } = fixture.longSilence;
      const quiet = gated.verdicts.filter(
        (v, k) => k * CHUNK_MS >= startMs + 1_000 && (k + 1) * CHUNK_MS <= endMs - FIXTURE_TOLERANCE_MS,
      );
      expect(quiet.some((v) => v.speech)).toBe(false);
    },
    HEAVY_MS,
  );
});

describe('SpeechDetector mechanics', () => {
  // The first 6 s: silence, a whole turn and the start of the next — speech starts and ends in it.
  const OPENING_SAMPLES = 6 * SERVICE_SAMPLE_RATE;
  let opening: Float32Array;
  /** Per model frame: the verdict of a call that completes exactly that frame. */
  let perFrame: ChunkVerdict[];

  beforeAll(async () => {
    opening = recording.subarray(0, OPENING_SAMPLES);
    const vad = await detector();
    perFrame = (await classifyInBlocks(vad, opening, [SILERO_FRAME_SAMPLES])).verdicts;
    await vad.dispose();
    expect(perFrame.some((v) => v.speech) && perFrame.some((v) => !v.speech)).toBe(true);
  }, HEAVY_MS);

  /** What a call covering frames [from, to) must say, from the frame-by-frame run. */
  function expected(from: number, to: number): ChunkVerdict {
    if (to === from) return perFrame[from - 1] ?? { speech: false, probability: 0 };
    const frames = perFrame.slice(from, to);
    return {
      speech: frames.some((v) => v.speech),
      probability: Math.max(...frames.map((v) => v.probability)),
    };
  }

  it.each([[[FRAME_SAMPLES]], [[1000, 37, 2048]], [[333]], [[OPENING_SAMPLES]]])(
    'carries the remainder across blocks of %j samples exactly as one frame per call',
    async (sizes) => {
      const vad = await detector();
      const { verdicts, ends } = await classifyInBlocks(vad, opening, sizes);
      await vad.dispose();
      verdicts.forEach((verdict, k) => {
        const from = Math.floor((ends[k - 1] ?? 0) / SILERO_FRAME_SAMPLES);
        const to = Math.floor(ends[k]! / SILERO_FRAME_SAMPLES);
        expect(verdict, `block ${k}`).toEqual(expected(from, to));
      });
    },
  );

  it('answers concurrent calls in call order, from audio copied at call time', async () => {
    const vad = await detector();
    const pending: Promise<ChunkVerdict>[] = [];
    const buffer = new Float32Array(FRAME_SAMPLES);
    for (let read = 0; read + FRAME_SAMPLES <= opening.length; read += FRAME_SAMPLES) {
      buffer.set(opening.subarray(read, read + FRAME_SAMPLES));
      pending.push(vad.classify(buffer));
      buffer.fill(0.9); // the capture pipeline reuses its buffers: this must not reach the model
    }
    const concurrent = await Promise.all(pending);
    await vad.dispose();
    const sequential = await detector();
    const { verdicts } = await classifyInBlocks(
      sequential,
      opening.subarray(0, pending.length * FRAME_SAMPLES),
      [FRAME_SAMPLES],
    );
    await sequential.dispose();
    expect(concurrent).toEqual(verdicts);
  });

  it('starts afresh after reset(), even when reset is queued behind unfinished calls', async () => {
    const vad = await detector();
    const once = opening.subarray(0, 30 * FRAME_SAMPLES + 700); // a partial model frame left over
    const first = once.length;
    const calls: Promise<ChunkVerdict>[] = [];
    for (let read = 0; read < first; read += FRAME_SAMPLES) {
      calls.push(vad.classify(once.subarray(read, Math.min(read + FRAME_SAMPLES, first))));
    }
    vad.reset();
    for (let read = 0; read < first; read += FRAME_SAMPLES) {
      calls.push(vad.classify(once.subarray(read, Math.min(read + FRAME_SAMPLES, first))));
    }
    const verdicts = await Promise.all(calls);
    const half = verdicts.length / 2;
    expect(verdicts.slice(half)).toEqual(verdicts.slice(0, half));
    await vad.dispose();
  });

  it('on a session made ahead (the worker’s next visit), answers as a detector made at once', async () => {
    const session = await Silero.new(ort, () => Promise.resolve(modelBytes));
    const ahead = SpeechDetector.fromModel(session);
    const { verdicts } = await classifyInBlocks(ahead, opening, [SILERO_FRAME_SAMPLES]);
    await ahead.dispose();
    expect(verdicts).toEqual(perFrame);
  });

  it('on a session that heard other audio (the warm-up’s), answers as a fresh one', async () => {
    const session = await Silero.new(ort, () => Promise.resolve(modelBytes));
    const warm = SpeechDetector.fromModel(session);
    const noise = new Float32Array(FRAME_SAMPLES);
    for (let k = 0; k < noise.length; k++) noise[k] = Math.sin(k * 0.37) * 0.1;
    for (let chunk = 0; chunk < 30; chunk++) await warm.classify(noise);
    const visit = SpeechDetector.fromModel(session);
    const { verdicts } = await classifyInBlocks(visit, opening, [SILERO_FRAME_SAMPLES]);
    await visit.dispose();
    expect(verdicts).toEqual(perFrame);
  });

  it('refuses unusable options on a session made ahead, and leaves the session to its owner', async () => {
    const session = await Silero.new(ort, () => Promise.resolve(modelBytes));
    expect(() =>
      SpeechDetector.fromModel(session, { ...DEFAULT_SPEECH_DETECTOR_OPTIONS, redemptionMs: -1 }),
    ).toThrow(/Speech end delay must be between 0 and 5000 ms/);
    const usable = SpeechDetector.fromModel(session);
    const { verdicts } = await classifyInBlocks(usable, opening, [SILERO_FRAME_SAMPLES]);
    await usable.dispose();
    expect(verdicts).toEqual(perFrame);
  });

  it('finishes queued work before releasing the model, and refuses work after', async () => {
    const vad = await detector();
    const last = vad.classify(opening.subarray(0, FRAME_SAMPLES));
    const disposed = vad.dispose();
    await expect(last).resolves.toEqual(expected(0, Math.floor(FRAME_SAMPLES / SILERO_FRAME_SAMPLES)));
    await disposed;
    await expect(vad.classify(opening.subarray(0, FRAME_SAMPLES))).rejects.toThrow(/dispose/);
  });
});

describe('unusable options', () => {
  const ok = DEFAULT_SPEECH_DETECTOR_OPTIONS;

  it('stops SpeechDetector.create from loading a model with unusable options', async () => {
    await expect(
      SpeechDetector.create({ ort, modelBytes, options: { ...ok, negativeSpeechThreshold: 0.9 } }),
    ).rejects.toThrow(/Speech end threshold must be below the speech start threshold/);
  });
});
