/**
 * Test support for the spool's tests: spools in real temporary directories (removed after each
 * test), audio whose every byte is different from its neighbours (so a read at the wrong offset
 * shows), and a disk that fails on demand through the spool's I/O seam.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { SpoolOptions } from './audio-spool';

/** 100 ms of 16 kHz mono 16-bit audio: what the recorder appends at a time. */
export const CHUNK = 3_200;
export const key = randomBytes(32);

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A spool's options in a fresh temporary directory, ten chunks to a segment. */
export function spoolOptions(overrides: Partial<SpoolOptions> = {}): SpoolOptions {
  const root = mkdtempSync(join(tmpdir(), 'scribe-spool-'));
  roots.push(root);
  return {
    dir: join(root, 'visit'),
    key,
    sessionId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
    encounterId: 'bed12',
    kind: 'ambient',
    segmentAudioBytes: CHUNK * 10,
    ...overrides,
  };
}

/** Random audio: no two stretches alike, so any misplaced byte fails a comparison. */
export const randomAudio = (bytes: number): Buffer => randomBytes(bytes);

/** `audio` cut into appends of `size` bytes (the last one shorter). */
export function piecesOf(audio: Buffer, size: number = CHUNK): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0; at < audio.length; at += size) pieces.push(audio.subarray(at, at + size));
  return pieces;
}

/** The error a full disk gives. */
const noSpace = (): NodeJS.ErrnoException =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });

/**
 * A disk that takes `failAt - 1` writes and then misbehaves on write number `failAt`: it throws
 * ENOSPC, or (`short`) writes only the first half of the record and says so. Counts every write.
 */
export function failingDisk(failAt: number, how: 'no-space' | 'short') {
  const disk = {
    writes: 0,
    writeSync(fd: number, data: Uint8Array): number {
      disk.writes += 1;
      if (disk.writes !== failAt) return writeSync(fd, data);
      if (how === 'no-space') throw noSpace();
      return writeSync(fd, data.subarray(0, data.length >> 1));
    },
  };
  return disk;
}
