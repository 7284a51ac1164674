import { expect } from '@playwright/test';
import { createHash } from 'node:crypto';
import { connectionStarts, withoutResumeRepeats } from '../../sandbox/test-support/resume-repeats';
import type { SandboxProcess, SandboxSession } from '../../sandbox/test-support/sandbox-process';
import { contiguousFromZero, type CapturedAudio } from './captured-audio';

/** A chunk of the service's stream: 100 ms of LINEAR16 at 16 kHz. */
export const CHUNK_BYTES = 3_200;

/**
 * With the ACK extension a reconnect resumes exactly where the service stopped; without it, from
 * the last offset the service proved with a pong, which may repeat what it read after its last
 * pong: one round trip plus one ping interval (a chunk) of audio, two chunks here on loopback
 * (docs/reliability.md, "A service without ACK").
 */
export const MAX_REPEAT_BYTES = { ack: 0, noAck: 2 * CHUNK_BYTES };

/**
 * The sandbox has the audio the page captured: every chunk, once, in order, after taking out the
 * span repeated at each resume point (none with ACK, at most `maxRepeat` bytes without). Returns
 * the session, the audio it accepted with the repeats taken out, and the repeats.
 */
export async function expectEveryCapturedByte(
  sandbox: SandboxProcess,
  sessionId: string,
  audio: CapturedAudio,
  maxRepeat = MAX_REPEAT_BYTES.ack,
): Promise<SandboxSession & { pcm: Buffer; repeats: number[] }> {
  expect(audio.seqs, 'chunk numbers the page sent').toEqual(contiguousFromZero(audio.count));
  const session = await sandbox.session(sessionId);
  expect(session.status).toBe('completed');
  // Every chunk is 3,200 bytes but the final one (End's tail, 640–3,200): the sum of real lengths.
  expect(
    audio.chunks.slice(0, -1).every((c) => c.pcm.byteLength === CHUNK_BYTES),
    'every chunk but the last is 100 ms',
  ).toBe(true);
  const received = await sandbox.audio(sessionId);
  expect(createHash('sha256').update(received).digest('hex')).toBe(session.pcm_sha256);
  const found = withoutResumeRepeats(received, connectionStarts(session.timeline), audio.pcm());
  expect(found, 'each connection at the sandbox continues the captured audio without a gap').toBeDefined();
  const { pcm, repeats } = found!;
  expect(pcm.length, 'bytes the sandbox accepted, repeats taken out').toBe(audio.bytes);
  expect(createHash('sha256').update(pcm).digest('hex'), 'SHA-256 of that audio').toBe(audio.sha256());
  for (const repeat of repeats)
    expect(repeat, 'bytes repeated at a resume point').toBeLessThanOrEqual(maxRepeat);
  return { ...session, pcm, repeats };
}
