/**
 * Proof of receipt without the ACK extension (issue 14): pong round trips against the ACK for the
 * same chunks; bytes repeated at the resume point after a stall or a drop, through the real stream
 * client, against what resuming from the last byte written would lose; how long the client takes to
 * leave a service that hangs for good. The method is in docs/benchmarks.md.
 *
 *   npm run build && node --import tsx bench/stream-proof/main.ts [--trials 5] [--quick]
 */
import type { SandboxProcess } from '../../sandbox/test-support/sandbox-process';
import type { FaultRequest } from '../../sandbox/control/faults';
import { connectionStarts, withoutResumeRepeats } from '../../sandbox/test-support/resume-repeats';
import { ServiceClient, syntheticSpeech } from '../../sandbox/test-support/service-client';
import { systemClock } from '../../src/main/core/ports';
import type { TokenSource } from '../../src/main/core/service/token-source';
import { MAX_UNPROVEN_BYTES } from '../../src/main/core/stream/outgoing';
import { createStreamClient, DEFAULT_LIVENESS_TIMEOUT_MS } from '../../src/main/core/stream/stream-client';
import type { StreamClient } from '../../src/main/core/stream/stream-client-options';
import { machineLine, percentile, saveHeadline, writeSection } from '../report';
import { numberArg, QUICK, requireBuild, runBenchmark, startSandbox } from '../support/run';

const CHUNK_BYTES = 3_200;
const BEARER = {
  partner_id: 'demo-bearer',
  partner_token: 'sandbox-bearer-partner-token',
  provider_id: 'dr-proof',
};
const TRIALS = QUICK ? 2 : numberArg('trials', 5);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const speech = (seconds: number, seed: number) =>
  syntheticSpeech(
    Array.from({ length: Math.ceil(seconds / 2) }, () => ({ speechMs: 1_400, silenceMs: 600 })),
    seed,
  ).subarray(0, seconds * 32_000);

/**
 * Sends `seconds` of audio on a raw socket, a chunk every `intervalMs`, with a ping after each
 * (as the app does), never more than `window` bytes ahead of the last pong; returns send → pong
 * and send → ACK times per chunk.
 */
async function measureRoundTrips(
  client: ServiceClient,
  seconds: number,
  intervalMs: number,
  window = Number.POSITIVE_INFINITY,
) {
  const id = await client.createSession('proof');
  const stream = await client.openStream(id);
  const socket = stream.socket;
  const sentAt = new Map<number, number>();
  const out = { pong: [] as number[], ack: [] as number[] };
  let proven = 0;
  let acked = 0;
  const ackTimes: number[] = [];
  socket.on('pong', (data) => {
    const offset = Number(data.toString());
    const at = sentAt.get(offset);
    if (at !== undefined) out.pong.push(performance.now() - at);
    proven = Math.max(proven, offset);
  });
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { type?: string; received_bytes?: number };
    if (message.type !== 'ACK' || message.received_bytes === undefined) return;
    while (acked + CHUNK_BYTES <= message.received_bytes && acked / CHUNK_BYTES < ackTimes.length) {
      out.ack.push(performance.now() - (ackTimes[acked / CHUNK_BYTES] as number));
      acked += CHUNK_BYTES;
    }
  });
  const pcm = speech(seconds, 3);
  const started = performance.now();
  let offset = 0;
  for (let k = 0; offset < pcm.length; k++) {
    const due = started + k * intervalMs;
    await sleep(Math.max(0, due - performance.now()));
    while (offset + CHUNK_BYTES - proven > window) await sleep(1);
    const at = performance.now();
    stream.audio(pcm.subarray(offset, offset + CHUNK_BYTES));
    offset += CHUNK_BYTES;
    sentAt.set(offset, at);
    ackTimes.push(at);
    socket.ping(String(offset));
  }
  while (proven < pcm.length) await sleep(5);
  await sleep(200);
  stream.event('EOF');
  await stream.closed;
  return out;
}

function loginTokens(baseUrl: string): TokenSource {
  const login = async () => {
    const client = new ServiceClient(baseUrl);
    const serviceToken = await client.signIn(BEARER);
    return { serviceToken, expiresAt: Date.now() + 30 * 60_000 };
  };
  let cached: ReturnType<typeof login> | undefined;
  return { current: () => (cached ??= login()), renew: () => (cached = login()) };
}

/**
 * One visit through the real stream client; `fault` breaks its connection at 1.5 s. Returns the bytes
 * repeated at the resume point, what resuming from the last byte written would have lost, and the
 * time from the fault to the link going down (ms).
 */
async function faultTrial(
  sandbox: SandboxProcess,
  rest: ServiceClient,
  fault: { action: 'stall_stream' | 'drop_stream'; seconds?: number },
) {
  const baseUrl = sandbox.url;
  const id = await rest.createSession('prooffault');
  const client: StreamClient = createStreamClient({
    endpoint: { baseUrl },
    sessionId: id,
    tokens: loginTokens(baseUrl),
    clock: systemClock,
    log: { info() {}, warn() {}, error() {} },
    reconnect: { firstDelayMs: 50, maxDelayMs: 400 },
  });
  let sentAtDrop = -1;
  let downAt = 0;
  client.onLinkChange((change) => {
    if (change.state === 'reconnecting' && sentAtDrop < 0) {
      sentAtDrop = client.bytes.sent;
      downAt = performance.now();
    }
  });
  client.connect();
  const pcm = speech(6, 17);
  const appended: Buffer[] = [];
  let faultAt = 0;
  for (let offset = 0, k = 0; offset < pcm.length; offset += CHUNK_BYTES, k++) {
    const chunk = pcm.subarray(offset, offset + CHUNK_BYTES);
    appended.push(chunk);
    client.sendAudio(chunk);
    if (k === 15) {
      faultAt = performance.now();
      await sandbox.faults({ ...fault, which: 'current', session_id: id } as FaultRequest);
    }
    await sleep(100);
  }
  await client.finish();
  client.dispose();
  const starts = connectionStarts((await sandbox.session(id)).timeline);
  const found = withoutResumeRepeats(await sandbox.audio(id), starts, Buffer.concat(appended));
  if (!found || !found.pcm.equals(Buffer.concat(appended))) throw new Error('the service is missing audio');
  return {
    repeated: found.repeats[0] ?? 0,
    lostIfWritten: Math.max(0, sentAtDrop - (starts[1] ?? sentAtDrop)),
    noticedMs: downAt - faultAt,
  };
}

const ms = (values: number[]) =>
  `${percentile(values, 50).toFixed(1)} / ${percentile(values, 99).toFixed(1)} / ${Math.max(...values).toFixed(1)}`;
const bytes = (values: number[]) => values.map((v) => v.toLocaleString('en-US')).join(', ');

runBenchmark('stream-proof', 6 * 60_000, async () => {
  requireBuild();
  // 1. Round trips, on a sandbox that sends ACKs too (the reference), at time scale 1.
  const withAck = await startSandbox({ asr: 'energy' });
  const ackClient = new ServiceClient(withAck.url);
  await ackClient.signIn(BEARER);
  const live = await measureRoundTrips(ackClient, 10, 100);
  const drain = await measureRoundTrips(ackClient, 20, 25);
  const capped = await measureRoundTrips(ackClient, 20, 0, MAX_UNPROVEN_BYTES);
  await withAck.stop();

  // 2. and 3. Faults through the real client, against the sandbox without ACK.
  const noAck = await startSandbox({ asr: 'energy', ack: false });
  const rest = new ServiceClient(noAck.url);
  await rest.signIn(BEARER);
  const stalls = [];
  const drops = [];
  for (let k = 0; k < TRIALS; k++) {
    stalls.push(await faultTrial(noAck, rest, { action: 'stall_stream', seconds: 2 }));
    drops.push(await faultTrial(noAck, rest, { action: 'drop_stream' }));
  }
  const hung = QUICK ? undefined : await faultTrial(noAck, rest, { action: 'stall_stream', seconds: 20 });

  const worstRepeat = Math.max(...stalls.map((t) => t.repeated), ...drops.map((t) => t.repeated));
  const meanLost = stalls.reduce((sum, t) => sum + t.lostIfWritten, 0) / stalls.length;
  await writeSection(
    'stream-proof',
    `## Stream: proof of receipt without ACK

${machineLine()}.

**Pong round trip** (send → pong, ms, p50 / p99 / max), with the sandbox's ACK for the same chunks on
the same connection as the reference:

| sending | chunks | pong | ACK (reference) |
|---|---:|---:|---:|
| live, one chunk every 100 ms | ${live.pong.length} | ${ms(live.pong)} | ${ms(live.ack)} |
| a backlog at 4× real time | ${drain.pong.length} | ${ms(drain.pong)} | ${ms(drain.ack)} |
| as fast as allowed, ${MAX_UNPROVEN_BYTES.toLocaleString('en-US')} bytes unproven at most (the service reads at 4× at most) | ${capped.pong.length} | ${ms(capped.pong)} | ${ms(capped.ack)} |

The liveness bound is ${DEFAULT_LIVENESS_TIMEOUT_MS / 1_000} s.

**Faults through the real stream client against the sandbox without ACK** (${TRIALS} trials each; every
byte reached the service in every trial, checked byte for byte after taking out the repeat):

| fault | bytes repeated at the resume point | reference: lost by resuming from the last byte written | link down after the fault (ms) |
|---|---|---|---:|
| the service stops reading for 2 s, then resets (RST) | ${bytes(stalls.map((t) => t.repeated))} | ${bytes(stalls.map((t) => t.lostIfWritten))} | ${ms(stalls.map((t) => t.noticedMs))} |
| the connection drops (no close frame) | ${bytes(drops.map((t) => t.repeated))} | ${bytes(drops.map((t) => t.lostIfWritten))} | ${ms(drops.map((t) => t.noticedMs))} |

${
  hung
    ? `**A service that hangs for good** (stops reading for 20 s): the client left the connection after
${(hung.noticedMs / 1_000).toFixed(1)} s (the bound is ${DEFAULT_LIVENESS_TIMEOUT_MS / 1_000} s, checked every second) and resumed on
a new one; ${hung.repeated.toLocaleString('en-US')} bytes repeated.`
    : '`--quick`: no service that hangs for good.'
}

Run: \`node --import tsx bench/stream-proof/main.ts\` (build first; \`--trials N\`, 5 by default; \`--quick\`: 2 trials, no hang).`,
  );
  saveHeadline('stream-proof', [
    {
      metric: 'bytes repeated at a resume point after a stall or drop, without ACK (lower is better)',
      ours: worstRepeat.toLocaleString('en-US'),
      reference: `lost when resuming from the last written byte: ${Math.round(meanLost).toLocaleString('en-US')} (mean, stall)`,
      goal: `≤ ${(2 * CHUNK_BYTES).toLocaleString('en-US')} (two chunks) and nothing lost`,
      met: worstRepeat <= 2 * CHUNK_BYTES,
    },
    {
      metric: 'pong round trip p99 at real time (lower is better)',
      ours: `${percentile(live.pong, 99).toFixed(1)} ms`,
      reference: `ACK ${percentile(live.ack, 99).toFixed(1)} ms`,
    },
  ]);
});
