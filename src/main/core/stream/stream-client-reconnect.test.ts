import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from '../auth/testing/test-ports';
import type { Sandbox } from '../../../../sandbox/server';
import type { ServiceClient } from '../../../../sandbox/test-support/service-client';
import {
  controlSession,
  dropStream,
  expectServiceHas,
  harness,
  restClient,
  speech,
  states,
  testSandbox,
  waitUntil,
} from './sandbox-harness.test-support';

/**
 * The stream client against the real sandbox when connections end: drops, token expiry, a service
 * that goes away and comes back, a computer that wakes. Byte equality is checked with the control
 * API's pcm_sha256 and received_bytes; timings get generous bounds.
 */
let sandbox: Sandbox;
let rest: ServiceClient;

beforeAll(async () => {
  sandbox = await testSandbox();
  rest = await restClient(sandbox);
});
afterAll(() => sandbox.close());

describe('reconnecting', () => {
  it('survives three dropped connections: resumes from the ACK, no gap, no duplicate', async () => {
    const id = await rest.createSession();
    const h = harness(() => sandbox, id);
    h.client.connect();
    await h.waitForLink('open');
    const live = h.startLive(speech(20, 11));
    const reconnectMs: number[] = [];
    let from = 0;
    for (let drop = 0; drop < 3; drop++) {
      await new Promise((r) => setTimeout(r, 400));
      const start = Date.now();
      await dropStream(sandbox, id);
      const down = await h.waitForLink('reconnecting', from + 1);
      from = await h.waitForLink('open', down);
      reconnectMs.push(Date.now() - start);
    }
    await new Promise((r) => setTimeout(r, 300));
    live.stop();
    await h.client.finish();
    await expectServiceHas(sandbox, id, h.appended());
    expect(states(h.changes)).toEqual([
      'connecting',
      'open',
      ...['reconnecting', 'open', 'reconnecting', 'open', 'reconnecting', 'open'],
      'closed',
    ]);
    expect(h.changes.filter((c) => c.state === 'reconnecting').map((c) => c.closeCode)).toEqual([
      1006, 1006, 1006,
    ]);
    expect((await controlSession(sandbox, id)).connections).toBe(4);
    console.info(`reconnect after a drop: ${reconnectMs.join(', ')} ms`);
  });

  it('renews the token after 4001 and continues byte-identical', async () => {
    // Tokens live 1 s here (100 s before the 0.01 scale).
    const shortLived = await testSandbox({ limitOverrides: { tokenLifetimeMs: 100_000 } });
    try {
      const client = await restClient(shortLived);
      const id = await client.createSession();
      const h = harness(() => shortLived, id);
      h.client.connect();
      await h.waitForLink('open');
      const live = h.startLive(speech(20, 13));
      await waitUntil(() => h.changes.some((c) => c.closeCode === 4001), '4001', 10_000);
      const afterExpiry = await h.waitForLink(
        'open',
        h.changes.findIndex((c) => c.closeCode === 4001),
      );
      await new Promise((r) => setTimeout(r, 200));
      live.stop();
      await h.client.finish();
      await expectServiceHas(shortLived, id, h.appended());
      expect(afterExpiry).toBeGreaterThan(0);
      expect(h.changes.find((c) => c.closeCode === 4001)).toMatchObject({
        state: 'reconnecting',
        reason: 'token expired',
      });
      expect(h.tokens.renewals).toBeGreaterThanOrEqual(1);
    } finally {
      await shortLived.close();
    }
  });

  it('goes offline while the service is down and loses nothing when it comes back on the same port', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'stream-client-offline-'));
    let box = await testSandbox({ dataDir });
    const port = Number(new URL(box.url).port);
    try {
      const client = await restClient(box);
      const id = await client.createSession();
      // What the client said, for a failure's message: this test failed once in CI, unexplained.
      const log = captureLog();
      const h = harness(() => box, id, {}, log);
      const told = () =>
        `${states(h.changes).join(' → ')}; the client: ${log.lines
          .filter((line) => line.level !== 'info' || line.message === 'stream: closed')
          .map((line) => `${line.message} ${JSON.stringify(line.fields ?? {})}`)
          .join(' | ')}`;
      h.client.connect();
      await h.waitForLink('open');
      const live = h.startLive(speech(20, 17));
      await new Promise((r) => setTimeout(r, 400));
      await box.close();
      await h.waitForLink('offline');
      const appendedWhileDown = h.client.bytes.appended;
      await new Promise((r) => setTimeout(r, 600));
      live.stop();
      expect(h.client.bytes.appended).toBeGreaterThan(appendedWhileDown);
      // "Finishing when online": finish() waits for the service instead of failing.
      let finished = false;
      const finishing = h.client.finish().then(() => (finished = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(finished, told()).toBe(false);
      expect(h.client.link.state, told()).toBe('offline');
      box = await testSandbox({ port, dataDir });
      await finishing;
      await expectServiceHas(box, id, h.appended());
      const sequence = states(h.changes);
      expect(sequence.slice(0, 2), told()).toEqual(['connecting', 'open']);
      expect(sequence.slice(2), told()).toEqual(['reconnecting', 'offline', 'open', 'closed']);
    } finally {
      await box.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('after the computer wakes, reconnectNow() replaces the connection at once and skips a long backoff; nothing lost', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'stream-client-wake-'));
    let box = await testSandbox({ dataDir });
    const port = Number(new URL(box.url).port);
    try {
      const client = await restClient(box);
      const id = await client.createSession();
      // A backoff of a minute: only reconnectNow() can bring the link back within this test.
      const h = harness(() => box, id, {
        reconnect: { firstDelayMs: 60_000, maxDelayMs: 60_000, offlineAfterAttempts: 1 },
      });
      h.client.connect();
      await h.waitForLink('open');
      const live = h.startLive(speech(20, 23));
      await new Promise((r) => setTimeout(r, 400));
      // Awake with the connection up: a fresh one takes over from the ACK.
      h.client.reconnectNow();
      await waitUntil(
        () => h.changes.filter((c) => c.state === 'open').length === 2,
        'a second connection',
        5_000,
      );
      // Asleep long enough for the service to go: the retry waits a minute...
      await box.close();
      const down = ['reconnecting', 'offline'];
      await waitUntil(() => down.includes(h.client.link.state), 'the link to drop');
      box = await testSandbox({ port, dataDir });
      await new Promise((r) => setTimeout(r, 500));
      expect(down).toContain(h.client.link.state);
      // ...until the computer wakes.
      h.client.reconnectNow();
      await waitUntil(
        () => h.changes.filter((c) => c.state === 'open').length === 3,
        'a third connection',
        5_000,
      );
      live.stop();
      await h.client.finish();
      await expectServiceHas(box, id, h.appended());
      expect((await controlSession(box, id)).connections).toBeGreaterThanOrEqual(3);
    } finally {
      await box.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('reconnects when another connection replaces ours (4000)', async () => {
    const id = await rest.createSession();
    const h = harness(() => sandbox, id);
    h.client.connect();
    await h.waitForLink('open');
    h.append(speech(1, 19));
    await waitUntil(() => h.client.bytes.acked === 32_000, 'ACK of 1 s');
    const intruder = await rest.openStream(id);
    const down = await h.waitForLink('reconnecting');
    expect(h.changes[down]).toMatchObject({ closeCode: 4000 });
    await h.waitForLink('open', down);
    expect((await intruder.closed).code).toBe(4000);
    h.append(speech(1, 23));
    await h.client.finish();
    await expectServiceHas(sandbox, id, h.appended());
  });
});
