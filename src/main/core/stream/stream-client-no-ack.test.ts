import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { Sandbox } from '../../../../sandbox/server';
import { connectionStarts, withoutResumeRepeats } from '../../../../sandbox/test-support/resume-repeats';
import type { ServiceClient } from '../../../../sandbox/test-support/service-client';
import { fault } from '../auth/testing/sandbox-managers';
import { systemClock } from '../ports';
import { MAX_UNPROVEN_BYTES } from './outgoing';
import {
  controlSession,
  dropStream,
  harness,
  LoginTokens,
  restClient,
  sha256,
  speech,
  states,
  testSandbox,
  waitUntil,
  type Harness,
} from './sandbox-harness.test-support';
import { createStreamClient } from './stream-client';

/**
 * The stream client against a service that follows only the interface: the sandbox with its ACK
 * extension off. What the service read is known from WebSocket pongs alone, so a connection that
 * hangs and then dies must cost a repeated span at the resume point, never a gap.
 */
let sandbox: Sandbox;
let rest: ServiceClient;

beforeAll(async () => {
  sandbox = await testSandbox({ ack: false });
  rest = await restClient(sandbox);
});
afterAll(() => sandbox.close());

/**
 * The service has every appended byte, in order, once the span repeated at each reconnect is
 * taken out. Returns the repeats (bytes).
 */
async function expectEveryByteAtTheService(h: Harness, id: string): Promise<number[]> {
  const seen = await controlSession(sandbox, id);
  const audio = Buffer.from(
    await (await fetch(`${sandbox.url}/__sandbox/sessions/${id}/audio.wav`)).arrayBuffer(),
  );
  const service = audio.subarray(44);
  expect(sha256(service)).toBe(seen.pcm_sha256);
  const appended = h.appended();
  const found = withoutResumeRepeats(service, connectionStarts(seen.timeline), appended);
  expect(found, 'each connection continues the captured audio').toBeDefined();
  expect(found!.pcm.length).toBe(appended.length);
  expect(sha256(found!.pcm)).toBe(sha256(appended));
  return found!.repeats;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a service without ACK', () => {
  it('stops reading for 2 s and resets the connection: resumes from what its pongs proved, nothing lost', async () => {
    const id = await rest.createSession();
    const h = harness(() => sandbox, id);
    h.client.connect();
    await h.waitForLink('open');
    const live = h.startLive(speech(20, 21));
    await pause(1_200);
    await fault(sandbox, { action: 'stall_stream', which: 'current', session_id: id, seconds: 2 });
    const down = await h.waitForLink('reconnecting', 0, 10_000);
    // The reset, not the client's liveness bound (5 s), ended that connection.
    expect(h.changes[down]?.closeCode).toBe(1006);
    await h.waitForLink('open', down);
    await pause(600);
    live.stop();
    await h.client.finish();
    const repeats = await expectEveryByteAtTheService(h, id);
    expect(repeats).toHaveLength(1);
    // A pong proves everything up to the ping after the newest chunk the service read, so the
    // repeat is what the service read after its last pong went out: at most a chunk or two here.
    expect(repeats[0]).toBeLessThanOrEqual(2 * 3_200);
    expect(states(h.changes)).toEqual(['connecting', 'open', 'reconnecting', 'open', 'closed']);
  });

  it('hangs for longer than the liveness bound: the client drops the connection itself and loses nothing', async () => {
    const id = await rest.createSession();
    const h = harness(() => sandbox, id, { livenessTimeoutMs: 1_000 });
    h.client.connect();
    await h.waitForLink('open');
    const live = h.startLive(speech(20, 22));
    await pause(800);
    const stalledAt = Date.now();
    await fault(sandbox, { action: 'stall_stream', which: 'current', session_id: id, seconds: 6 });
    const down = await h.waitForLink('reconnecting', 0, 10_000);
    const noticedMs = Date.now() - stalledAt;
    await h.waitForLink('open', down);
    await pause(600);
    live.stop();
    await h.client.finish();
    // Left after the bound (checked every quarter of it), long before the service's own reset.
    expect(noticedMs).toBeGreaterThanOrEqual(1_000);
    expect(noticedMs).toBeLessThan(3_000);
    const repeats = await expectEveryByteAtTheService(h, id);
    expect(repeats).toHaveLength(1);
    expect(repeats[0]).toBeLessThanOrEqual(2 * 3_200);
  });

  it('paused (KEEP_ALIVE only), a hung service is noticed too: the pings behind KEEP_ALIVE go unanswered', async () => {
    // Its own sandbox: a keep-alive deadline of 1 s (scaled) leaves room for KEEP_ALIVE every 200 ms.
    const slow = await testSandbox({ ack: false, limitOverrides: { keepAliveDeadlineMs: 100_000 } });
    try {
      const id = await (await restClient(slow)).createSession();
      const h = harness(() => slow, id, { livenessTimeoutMs: 1_000 });
      h.client.connect();
      await h.waitForLink('open');
      const pcm = speech(1, 25);
      for (let offset = 0; offset < pcm.length; offset += 3_200)
        h.append(pcm.subarray(offset, offset + 3_200));
      h.client.sendEvent('PAUSE');
      const keepAlive = setInterval(() => h.client.sendEvent('KEEP_ALIVE'), 200);
      try {
        await pause(500);
        const before = h.changes.length;
        const stalledAt = Date.now();
        await fault(slow, { action: 'stall_stream', which: 'current', session_id: id, seconds: 8 });
        const down = await h.waitForLink('reconnecting', before, 5_000);
        expect(Date.now() - stalledAt).toBeLessThan(3_000);
        expect(h.changes[down]?.closeCode).toBe(1006);
        await h.waitForLink('open', down);
      } finally {
        clearInterval(keepAlive);
      }
      await h.client.finish();
      const seen = await controlSession(slow, id);
      expect(seen.timeline.some((e) => e.type.startsWith('close:4008'))).toBe(false);
      expect(seen.received_bytes).toBe(pcm.length);
      expect(seen.pcm_sha256).toBe(sha256(pcm));
    } finally {
      await slow.close();
    }
  });

  it('survives three dropped connections: every byte, small repeats at the resume points', async () => {
    const id = await rest.createSession();
    const h = harness(() => sandbox, id);
    h.client.connect();
    await h.waitForLink('open');
    const live = h.startLive(speech(20, 23));
    let from = 0;
    for (let drop = 0; drop < 3; drop++) {
      await pause(400);
      await dropStream(sandbox, id);
      const down = await h.waitForLink('reconnecting', from + 1);
      from = await h.waitForLink('open', down);
    }
    await pause(300);
    live.stop();
    await h.client.finish();
    const repeats = await expectEveryByteAtTheService(h, id);
    expect(repeats).toHaveLength(3);
    for (const repeat of repeats) expect(repeat).toBeLessThanOrEqual(2 * 3_200);
  });

  it('a backlog sent into a hung service is capped at the unproven window, and all of it arrives', async () => {
    const id = await rest.createSession();
    const h = harness(() => sandbox, id);
    h.client.connect();
    await h.waitForLink('open');
    // Twenty seconds recorded while offline, drained at up to 4× real time, when the service hangs.
    const pcm = speech(20, 24);
    for (let offset = 0; offset < pcm.length; offset += 3_200) h.append(pcm.subarray(offset, offset + 3_200));
    await pause(500);
    await fault(sandbox, { action: 'stall_stream', which: 'current', session_id: id, seconds: 2 });
    await pause(300);
    const { sent, acked } = h.client.bytes;
    expect(sent - acked).toBeLessThanOrEqual(MAX_UNPROVEN_BYTES + 3_200);
    await h.client.finish();
    const repeats = await expectEveryByteAtTheService(h, id);
    expect(repeats).toHaveLength(1);
    expect(repeats[0]).toBeLessThanOrEqual(MAX_UNPROVEN_BYTES + 3_200);
  });

  it('finishes by the service closing after EOF, which proves the last bytes', async () => {
    const id = await rest.createSession();
    const h = harness(() => sandbox, id);
    h.client.connect();
    const pcm = speech(2, 5);
    for (let offset = 0; offset < pcm.length; offset += 3_200) h.append(pcm.subarray(offset, offset + 3_200));
    await h.client.finish();
    expect(h.client.bytes.acked).toBe(pcm.length);
    await expectEveryByteAtTheService(h, id);
  });
});

describe('a service that answers no ping either', () => {
  it('is not taken for dead: one connection, every byte, finished by its close after EOF', async () => {
    // Outside RFC 6455 (pongs are required), but seen in the wild: no proof is possible, and
    // reconnecting every few seconds would only send the same audio again and again.
    const received: Buffer[] = [];
    let connections = 0;
    const server = createServer();
    const wss = new WebSocketServer({ server, autoPong: false });
    wss.on('connection', (socket) => {
      connections += 1;
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString()) as { type: string; data?: string; event?: string };
        if (message.type === 'AUDIO') received.push(Buffer.from(message.data as string, 'base64'));
        if (message.event === 'EOF') socket.close(1000, 'end of stream');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const tokens = new LoginTokens(() => sandbox.url);
    const client = createStreamClient({
      endpoint: { baseUrl: url },
      sessionId: 'no-pongs',
      tokens,
      clock: systemClock,
      log: { info() {}, warn() {}, error() {} },
      firstAckWaitMs: 100,
      livenessTimeoutMs: 400,
    });
    const changes: string[] = [];
    client.onLinkChange((change) => changes.push(change.state));
    try {
      client.connect();
      const pcm = speech(3, 9);
      for (let offset = 0; offset < pcm.length; offset += 3_200) {
        client.sendAudio(pcm.subarray(offset, offset + 3_200));
        await pause(60);
      }
      await client.finish();
      await waitUntil(() => Buffer.concat(received).length === pcm.length, 'every byte at the server');
      expect(sha256(Buffer.concat(received))).toBe(sha256(pcm));
      expect(connections).toBe(1);
      expect(changes).toEqual(['connecting', 'open', 'closed']);
    } finally {
      client.dispose();
      wss.close();
      server.close();
    }
  });
});
