import { describe, expect, it } from 'vitest';
import {
  CHUNK_HEADER_BYTES,
  CHUNK_MESSAGE_BYTES,
  decodeAudioChunk,
  encodeAudioChunk,
  writeChunkHeader,
} from './audio-chunk';

const pcm = Uint8Array.from({ length: 3_200 }, (_, k) => (k * 7) & 0xff);

describe('audio chunk messages', () => {
  it('round-trips header and audio byte for byte', () => {
    const message = encodeAudioChunk({
      seq: 4_000_000_000,
      capturedAt: 1_763_800_000_123.5,
      speech: true,
      speechProbability: 0.8125,
      pcm,
    });
    expect(message.byteLength).toBe(3_216);
    const decoded = decodeAudioChunk(new Uint8Array(message));
    if (!decoded.ok) throw new Error(decoded.problems[0]!.message);
    expect(decoded.chunk).toMatchObject({
      seq: 4_000_000_000,
      capturedAt: 1_763_800_000_123.5,
      speech: true,
    });
    expect(decoded.chunk.speechProbability).toBeCloseTo(0.8125, 4);
    expect(decoded.chunk.pcm).toEqual(pcm);
  });

  it('leaves the probability out when there is none, and clamps one out of range', () => {
    const without = decodeAudioChunk(
      new Uint8Array(encodeAudioChunk({ seq: 1, capturedAt: 0, speech: false, pcm })),
    );
    expect(without.ok && without.chunk.speechProbability).toBe(undefined);
    const clamped = decodeAudioChunk(
      new Uint8Array(encodeAudioChunk({ seq: 1, capturedAt: 0, speech: true, speechProbability: 3, pcm })),
    );
    expect(clamped.ok && clamped.chunk.speechProbability).toBe(1);
  });

  it('fills the header of a buffer whose audio the worklet already wrote, without touching the audio', () => {
    const message = new ArrayBuffer(CHUNK_MESSAGE_BYTES);
    new Uint8Array(message, CHUNK_HEADER_BYTES).set(pcm);
    writeChunkHeader(message, { seq: 2, capturedAt: 10, speech: false });
    const decoded = decodeAudioChunk(new Uint8Array(message));
    expect(decoded.ok && decoded.chunk.pcm).toEqual(pcm);
    expect(() => writeChunkHeader(new ArrayBuffer(100), { seq: 2, capturedAt: 10, speech: false })).toThrow(
      /3216/,
    );
  });

  it('refuses malformed messages naming the field and the rule', () => {
    const good = new Uint8Array(encodeAudioChunk({ seq: 1, capturedAt: 5, speech: true, pcm }));
    const cases: [Uint8Array, string, RegExp][] = [
      [good.subarray(0, 3_000), 'chunk', /must be 3216 bytes/],
      [Uint8Array.from(good, (b, k) => (k === 0 ? 9 : b)), 'version', /version must be 1/],
      [Uint8Array.from(good, (b, k) => (k === 1 ? 0x80 : b)), 'flags', /only bit 0.*bit 2 \(final\)/],
    ];
    const nan = good.slice();
    new DataView(nan.buffer).setFloat64(8, Number.NaN, true);
    cases.push([nan, 'capturedAt', /non-negative finite/]);
    for (const [bytes, field, rule] of cases) {
      const decoded = decodeAudioChunk(bytes);
      expect(decoded.ok).toBe(false);
      if (!decoded.ok) {
        expect(decoded.problems[0]!.field).toBe(field);
        expect(decoded.problems[0]!.message).toMatch(rule);
      }
    }
  });

  it('carries a shorter final chunk (the audio since the last full one, at End) and says it is final', () => {
    for (const bytes of [640, 1_234, 3_198, 3_200]) {
      const tail = pcm.subarray(0, bytes);
      const decoded = decodeAudioChunk(
        new Uint8Array(encodeAudioChunk({ seq: 7, capturedAt: 5, speech: true, final: true, pcm: tail })),
      );
      if (!decoded.ok) throw new Error(decoded.problems[0]!.message);
      expect(decoded.chunk.final).toBe(true);
      expect(decoded.chunk.pcm).toEqual(tail);
    }
    const full = decodeAudioChunk(
      new Uint8Array(encodeAudioChunk({ seq: 1, capturedAt: 0, speech: true, pcm })),
    );
    expect(full.ok && full.chunk.final).toBe(undefined);
    // The worklet writes a final chunk in place too: its header goes on a shorter buffer.
    const message = new ArrayBuffer(CHUNK_HEADER_BYTES + 800);
    writeChunkHeader(message, { seq: 3, capturedAt: 1, speech: false, final: true });
    expect(decodeAudioChunk(new Uint8Array(message)).ok).toBe(true);
    expect(() => writeChunkHeader(message, { seq: 3, capturedAt: 1, speech: false })).toThrow(/3216/);
  });

  it('refuses a short chunk that is not final, and a final one under 20 ms or of half a sample', () => {
    const make = (bytes: number, final: boolean) => {
      const message = new Uint8Array(CHUNK_HEADER_BYTES + bytes);
      message[0] = 1;
      message[1] = final ? 4 : 0;
      return message;
    };
    for (const [bytes, final] of [
      [1_600, false],
      [638, true],
      [0, true],
      [1_601, true],
      [3_202, true],
    ] as const) {
      const decoded = decodeAudioChunk(make(bytes, final));
      expect(decoded.ok, `${bytes} bytes, final ${final}`).toBe(false);
      if (!decoded.ok) {
        expect(decoded.problems[0]!.field).toBe('chunk');
        expect(decoded.problems[0]!.message).toMatch(
          /must be 3216 bytes.*only the final chunk may be shorter, 656–3216/,
        );
      }
    }
    expect(() =>
      encodeAudioChunk({ seq: 1, capturedAt: 0, speech: true, final: true, pcm: pcm.subarray(0, 600) }),
    ).toThrow(/640–3200/);
  });

  it('reads a message that sits inside a larger buffer (a socket read)', () => {
    const good = new Uint8Array(encodeAudioChunk({ seq: 9, capturedAt: 5, speech: true, pcm }));
    const larger = new Uint8Array(good.byteLength + 100);
    larger.set(good, 37);
    const decoded = decodeAudioChunk(larger.subarray(37, 37 + good.byteLength));
    expect(decoded.ok && decoded.chunk.seq).toBe(9);
  });
});
