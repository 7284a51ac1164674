import { createHash } from 'node:crypto';
import { describe, it, type ExpectStatic } from 'vitest';
import { connectionStarts, withoutResumeRepeats } from '../sandbox/test-support/resume-repeats';
import type { SandboxSession } from '../sandbox/test-support/sandbox-process';
import { FIXTURE_CHUNK_BYTES, startFaultVisit, type FaultVisit } from './support/fault-visit';

/**
 * Issues 7 and 14, "never lose a visit", in the contract tier: the service fails in the middle of
 * a recording and the visit still ends with a note made from every chunk the microphone captured.
 * The main-process core (support/fault-visit.ts) records the committed conversation's first
 * 16 s, fed through the renderer's chunk channel at twice real time, against the sandbox as its
 * own process (so it can be killed), with and without the ACK extension. Each test compares the
 * audio the sandbox accepted with the audio fed in: the same SHA-256 after taking out the span
 * repeated at each resume point, and that span within its documented bound.
 *
 * The browser-level proof of the same path (Chromium's fake microphone, the real renderer) is
 * e2e/faults.spec.ts, one short visit.
 */

/**
 * With the ACK extension a reconnect resumes exactly where the service stopped; without it, from
 * the last offset the service proved with a pong: at most one round trip plus one chunk of audio,
 * two chunks on loopback (docs/reliability.md, "A service without ACK").
 */
const maxRepeat = (ack: boolean) => (ack ? 0 : 2 * FIXTURE_CHUNK_BYTES);

/** Every fed chunk is at the service once, in order, after taking out the spans repeated at resume points. */
async function expectEveryFedByte(
  expect: ExpectStatic,
  visit: FaultVisit,
  ack: boolean,
): Promise<SandboxSession & { repeats: number[] }> {
  const session = await visit.sandbox.session(visit.sessionId);
  expect(session.status).toBe('completed');
  const received = await visit.sandbox.audio(visit.sessionId);
  expect(createHash('sha256').update(received).digest('hex')).toBe(session.pcm_sha256);
  const fed = visit.fed();
  const found = withoutResumeRepeats(received, connectionStarts(session.timeline), fed);
  expect(found, 'each connection at the sandbox continues the fed audio without a gap').toBeDefined();
  const { pcm, repeats } = found!;
  expect(pcm.length, 'bytes the sandbox accepted, repeats taken out').toBe(fed.length);
  expect(createHash('sha256').update(pcm).digest('hex')).toBe(createHash('sha256').update(fed).digest('hex'));
  for (const repeat of repeats)
    expect(repeat, 'bytes repeated at a resume point').toBeLessThanOrEqual(maxRepeat(ack));
  return { ...session, repeats };
}

/** End after the whole visit is fed, then the note and its transcript, as after any visit. */
async function endAndExpectNote(expect: ExpectStatic, visit: FaultVisit): Promise<void> {
  const results = await visit.endAndGetResults();
  expect(results.status).toBe('completed');
  expect(results.transcript?.length ?? 0).toBeGreaterThan(0);
}

/** A visit takes 10–15 s; the eight run at once on a 2-core machine alongside other test files. */
const VISIT_TIMEOUT_MS = 90_000;

const count = (session: SandboxSession, type: string) =>
  session.timeline.filter((e) => e.type === type).length;

/** Waits until the session's stream is open again, on its `connections`-th connection. */
async function openOnConnection(expect: ExpectStatic, visit: FaultVisit, connections: number): Promise<void> {
  await expect
    .poll(
      async () => {
        const session = await visit.sandbox.session(visit.sessionId);
        return session.stream_open && session.connections;
      },
      { timeout: 30_000, interval: 50 },
    )
    .toBe(connections);
}

describe.concurrent.each([
  { ack: true, kind: 'a service with ACK' },
  { ack: false, kind: 'a service without ACK' },
])('$kind', { timeout: VISIT_TIMEOUT_MS }, ({ ack }) => {
  it('drops the stream three times: the core reconnects each time and the note has every byte', async ({
    expect,
  }) => {
    await using visit = await startFaultVisit({ ack });
    for (const [k, atMs] of [4_000, 8_000, 12_000].entries()) {
      await visit.reach(atMs);
      await visit.sandbox.faults({ action: 'drop_stream', which: 'current', session_id: visit.sessionId });
      // Back on a new connection before the next drop.
      await openOnConnection(expect, visit, k + 2);
    }
    await endAndExpectNote(expect, visit);

    const session = await expectEveryFedByte(expect, visit, ack);
    expect(count(session, 'fault')).toBe(3);
    expect(session.connections).toBe(4);
    // The clinician saw each reconnect, and the recording never failed.
    expect(visit.states().filter((state) => state === 'reconnecting')).toHaveLength(3);
    expect(visit.states()).not.toContain('failed');
  });

  it('is killed at 0:05 and started again 2 s later: the core keeps recording, resumes, and the note has every byte', async ({
    expect,
  }) => {
    await using visit = await startFaultVisit({ ack });
    await visit.reach(5_000);
    await visit.sandbox.kill();
    await visit.waitForState(/^(reconnecting|offline)$/);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await visit.sandbox.start();
    // Reconnect backoff reaches 10 s while the service is away, so the core may be back only after
    // the feed has ended; the stream is open again either way.
    await openOnConnection(expect, visit, 2);
    await endAndExpectNote(expect, visit);

    const session = await expectEveryFedByte(expect, visit, ack);
    expect(session.connections).toBeGreaterThanOrEqual(2);
    expect(visit.states()).not.toContain('failed');
  });

  it('stops reading for 2 s at 0:06 and then resets the connection: the note has every byte', async ({
    expect,
  }) => {
    await using visit = await startFaultVisit({ ack });
    await visit.reach(6_000);
    await visit.sandbox.faults({
      action: 'stall_stream',
      which: 'current',
      session_id: visit.sessionId,
      seconds: 2,
    });
    // The reset (2 s) comes before the core's own liveness bound (5 s) would.
    await openOnConnection(expect, visit, 2);
    await endAndExpectNote(expect, visit);

    const session = await expectEveryFedByte(expect, visit, ack);
    expect(session.timeline.map((e) => e.detail)).toContain('connection reset');
    expect(session.repeats).toHaveLength(1);
    expect(visit.states()).toContain('reconnecting');
    expect(visit.states()).not.toContain('failed');
  });
});

describe.concurrent('a service with ACK', { timeout: VISIT_TIMEOUT_MS }, () => {
  it('is unreachable for the end of the visit and End is pressed offline: the visit finishes by itself when the service is back, with every byte', async ({
    expect,
  }) => {
    await using visit = await startFaultVisit({ ack: true });
    await visit.reach(8_000);
    await visit.sandbox.kill();
    await visit.waitForState(/^offline$/, 20_000);
    expect(visit.view().reason ?? '').toBe('');
    // End while the service is still away: the visit waits to finish, the clinician is free.
    await visit.fedAll();
    await visit.call('recorder.end');
    await visit.waitForProgress((p) => p.offline === true, 10_000);
    const waiting = await visit.historyEntry();
    expect(waiting.state).toBe('finishing');

    await visit.sandbox.start();
    await visit.waitForProgress((p) => p.done === true && p.status === 'completed', 60_000);
    expect((await visit.historyEntry()).state).toBe('done');
    await expectEveryFedByte(expect, visit, true);
    expect(visit.states()).toContain('offline');
    expect(visit.states()).not.toContain('failed');
  });

  it('lets the service token expire mid-stream: the core signs in again, resumes, and the note has every byte', async ({
    expect,
  }) => {
    await using visit = await startFaultVisit({ ack: true });
    await visit.reach(6_000);
    await visit.sandbox.faults({ action: 'expire_tokens' });
    await expect
      .poll(
        async () => {
          const session = await visit.sandbox.session(visit.sessionId);
          return session.stream_open && count(session, 'close:4001') === 1 && session.connections;
        },
        { timeout: 15_000, interval: 50 },
      )
      .toBe(2);
    await endAndExpectNote(expect, visit);

    const session = await expectEveryFedByte(expect, visit, true);
    expect(session.connections).toBe(2);
    expect(visit.states()).not.toContain('failed');
    // Nothing for the clinician to do: still signed in, with a new token.
    expect(await visit.call('auth.status')).toMatchObject({ signedIn: true, providerId: 'dr-faults' });
  });
});
