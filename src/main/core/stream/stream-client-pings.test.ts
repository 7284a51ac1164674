import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../../sandbox/server';
import type { ServiceClient } from '../../../../sandbox/test-support/service-client';
import { ACK_MODE_PING_EVERY_MS } from './outgoing';
import {
  controlSession,
  expectServiceHas,
  harness,
  injectFault,
  restClient,
  speech,
  testSandbox,
} from './sandbox-harness.test-support';

/**
 * How often the stream pings, against the real sandbox (which counts the pings it reads): with
 * ACK a ping only checks that the connection lives, without ACK each pong is the proof of what the
 * service read. Issue 40: a ping and its pong behind every 100 ms chunk cost the core CPU where the
 * ACKs already prove receipt.
 */
let sandbox: Sandbox;
let rest: ServiceClient;

beforeAll(async () => {
  sandbox = await testSandbox();
  rest = await restClient(sandbox);
});
afterAll(() => sandbox.close());

/** Streams `seconds` of speech at real time (a chunk each 100 ms), finishes, and counts the pings. */
async function pingsOverVisit(useAck: boolean, seconds: number) {
  const id = await rest.createSession();
  const h = harness(() => sandbox, id, { useAck });
  h.client.connect();
  await h.waitForLink('open');
  const pcm = speech(seconds, 11);
  for (let offset = 0; offset < pcm.length; offset += 3_200) {
    h.append(pcm.subarray(offset, offset + 3_200));
    await new Promise((r) => setTimeout(r, 100));
  }
  await h.client.finish();
  await expectServiceHas(sandbox, id, pcm);
  return { chunks: pcm.length / 3_200, pings: (await controlSession(sandbox, id)).pings };
}

describe('pings on the audio stream', () => {
  it('with ACK, one a second behind the audio; without ACK, one behind every chunk', async () => {
    const [withAck, withoutAck] = await Promise.all([pingsOverVisit(true, 3), pingsOverVisit(false, 3)]);
    expect(withAck.chunks).toBe(30);
    // 3 s of audio: a ping at its start and one a second after (a late timer may add one), and
    // the one behind EOF.
    expect(ACK_MODE_PING_EVERY_MS).toBe(1_000);
    expect(withAck.pings).toBeGreaterThanOrEqual(3);
    expect(withAck.pings).toBeLessThanOrEqual(6);
    expect(withoutAck.pings).toBeGreaterThanOrEqual(withoutAck.chunks);
  });

  it('with ACK, a hung service is still left within the liveness bound and a ping’s second', async () => {
    const id = await rest.createSession();
    const h = harness(() => sandbox, id, { livenessTimeoutMs: 1_000 });
    h.client.connect();
    await h.waitForLink('open');
    const live = h.startLive(speech(20, 22));
    await new Promise((r) => setTimeout(r, 800));
    const stalledAt = Date.now();
    await injectFault(sandbox, { action: 'stall_stream', which: 'current', session_id: id, seconds: 6 });
    const down = await h.waitForLink('reconnecting', 0, 10_000);
    const noticedMs = Date.now() - stalledAt;
    await h.waitForLink('open', down);
    await new Promise((r) => setTimeout(r, 600));
    live.stop();
    await h.client.finish();
    // The first ping after the stall goes out within a second; unanswered for the bound (1 s),
    // checked every quarter of it. The stall check (15 s of audio unacknowledged) plays no part.
    expect(noticedMs).toBeGreaterThanOrEqual(1_000);
    expect(noticedMs).toBeLessThan(1_000 + ACK_MODE_PING_EVERY_MS + 1_000);
    await expectServiceHas(sandbox, id, h.appended());
  });
});
