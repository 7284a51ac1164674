/** The reference clients, each run in its own process: the same frames as the core, no core. */
import { once } from 'node:events';
import WebSocket from 'ws';
import { ServiceClient } from '../../sandbox/test-support/service-client';
import { BareStream, login } from './bare-stream';
import { AUTO_PAUSE_AFTER_MS, CHUNK_MS, CONTEXT, KEEP_ALIVE_EVERY_MS, PRE_ROLL_CHUNKS } from './constants';
import { traceFrom, type HeapTrace, type Memory } from './heap';
import { play } from './play';
import { cpuSeconds, sleep } from './tools';
import { chunkBase64 } from './visit';

export interface ReferenceRun {
  sessionId: string;
  heap: HeapTrace;
  wallMs: number;
  maxLagMs: number;
  cpuS: number;
  status: string;
  connections: number;
  closes: Record<string, number>;
}

/** The same visit, the same frames, the recorder's policy in a dozen lines, no core. */
export async function referenceReplay(
  baseUrl: string,
  plan: Uint8Array,
  speed: number,
): Promise<ReferenceRun> {
  const client = new ServiceClient(baseUrl);
  await client.signIn(login('dr-bench-reference'));
  const sessionId = await client.createSession('benchvisitreference');
  await client.call('POST', `/api/v1/ambient/session/${sessionId}/context`, CONTEXT);
  const stream = new BareStream(client, sessionId, plan);
  stream.connect();

  let quietMs = 0;
  let preRoll: number[] = [];
  let keepAlive: NodeJS.Timeout | undefined;
  const heap: Memory[] = [];
  const cpu = process.cpuUsage();
  const played = await play(
    plan.length,
    CHUNK_MS / speed,
    (i) => {
      const speech = plan[i] === 1;
      if (stream.paused) {
        if (!speech) {
          preRoll.push(i);
          if (preRoll.length > PRE_ROLL_CHUNKS) preRoll.shift();
          return;
        }
        stream.paused = false;
        clearInterval(keepAlive);
        quietMs = 0;
        stream.event('RESUME');
        for (const held of preRoll) stream.audio(held);
        preRoll = [];
        stream.audio(i);
        return;
      }
      stream.audio(i);
      quietMs = speech ? 0 : quietMs + CHUNK_MS;
      if (quietMs >= AUTO_PAUSE_AFTER_MS && stream.open) {
        stream.paused = true;
        quietMs = 0;
        preRoll = [];
        stream.event('PAUSE');
        keepAlive = setInterval(() => stream.event('KEEP_ALIVE'), KEEP_ALIVE_EVERY_MS / speed);
      }
    },
    heap,
  );
  clearInterval(keepAlive);
  await stream.finish();
  await client.signIn(login('dr-bench-reference'));
  await client.call('POST', `/api/v1/ambient/session/${sessionId}/end`);
  let status = 'ended';
  while (!['completed', 'failed', 'skipped', 'cancelled'].includes(status)) {
    await sleep(50);
    status = (await client.call<{ status: string }>('GET', `/api/v1/ambient/session/${sessionId}/status`))
      .body.status;
  }
  // Kept like the core keeps them for the result view.
  const results = await Promise.all([
    client.call('GET', `/api/v1/ambient/session/${sessionId}/content`),
    client.call('GET', `/api/v1/ambient/session/${sessionId}/transcript`),
  ]);
  const cpuS = cpuSeconds(cpu);
  const trace = await traceFrom(heap);
  void results;
  return {
    sessionId,
    heap: trace,
    ...played,
    cpuS,
    status,
    connections: stream.connections,
    closes: stream.closes,
  };
}

/** A bare client on the same 100 ms timer: AUDIO frames straight into the socket. */
export async function referenceJitter(baseUrl: string, plan: Uint8Array): Promise<{ sessionId: string }> {
  const client = new ServiceClient(baseUrl);
  await client.signIn(login('dr-bench-reference'));
  const sessionId = await client.createSession('benchjitterreference');
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws/stream`, {
    headers: { ...client.headers(), ambient_session_id: sessionId },
    perMessageDeflate: false,
  });
  const closed = once(socket, 'close');
  await once(socket, 'message'); // the first ACK: the stream is open
  await play(plan.length, CHUNK_MS, (i) => {
    socket.send(JSON.stringify({ type: 'AUDIO', data: chunkBase64(plan, i) }));
  });
  socket.send(JSON.stringify({ type: 'EVENT', event: 'EOF' }));
  await closed;
  return { sessionId };
}
