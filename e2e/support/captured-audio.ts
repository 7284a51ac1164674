import type { Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { decodeAudioChunk } from '../../src/shared/contract/audio-chunk';

export interface SentChunk {
  seq: number;
  speech: boolean;
  /** The capture's last chunk (End), which may be shorter. */
  final: boolean;
  /** The chunk's LINEAR16 PCM (a copy): 3,200 bytes, 640–3,200 in a final chunk. */
  pcm: Buffer;
  /** Test-runner clock (ms) when the page's socket reported sending it. */
  sentAt: number;
}

/**
 * Every audio chunk the page sends to the app core, in the order it sent them, read off the
 * contract WebSocket (browser mode: binary frames of the chunk layout in
 * src/shared/contract/audio-chunk.ts). This is exactly what the renderer captured and handed on.
 * It follows the page across navigations (a relaunched host is a new socket).
 */
export class CapturedAudio {
  readonly chunks: SentChunk[] = [];

  constructor(page: Page) {
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        // Text frames are contract calls; binary ones (a Buffer here) are audio chunks.
        if (typeof payload === 'string') return;
        const decoded = decodeAudioChunk(new Uint8Array(payload));
        if (!decoded.ok) throw new Error(`the page sent a malformed chunk: ${decoded.problems[0]!.message}`);
        const { seq, speech, pcm, final } = decoded.chunk;
        this.chunks.push({ seq, speech, final: final === true, pcm: Buffer.from(pcm), sentAt: Date.now() });
      }),
    );
  }

  get count(): number {
    return this.chunks.length;
  }

  /** Bytes of audio in every chunk sent (their real lengths: a final chunk may be shorter). */
  get bytes(): number {
    return this.chunks.reduce((sum, c) => sum + c.pcm.byteLength, 0);
  }

  get seqs(): number[] {
    return this.chunks.map((c) => c.seq);
  }

  /** The PCM of the first `count` chunks (all by default), concatenated in send order. */
  pcm(count = this.chunks.length): Buffer {
    return Buffer.concat(this.chunks.slice(0, count).map((c) => c.pcm));
  }

  sha256(count = this.chunks.length): string {
    return createHash('sha256').update(this.pcm(count)).digest('hex');
  }
}

/** 0, 1, …, n − 1: what the captured sequence numbers must be (no gap, no duplicate). */
export function contiguousFromZero(n: number): number[] {
  return Array.from({ length: n }, (_, k) => k);
}
