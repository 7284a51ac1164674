/** The proxy process (`--role proxy`) that times the client's frames outside the sending process. */
import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';
import { percentile } from '../report';
import { CHUNK_MS } from './visit';

/** Send jitter from the times AUDIO frames arrived: p50 and p99 of |interval − 100 ms|. */
export function jitter(times: number[]): { p50: number; p99: number; max: number; frames: number } {
  const deviations = times.slice(1).map((t, i) => Math.abs(t - times[i]! - CHUNK_MS));
  return {
    p50: percentile(deviations, 50),
    p99: percentile(deviations, 99),
    max: Math.max(...deviations),
    frames: times.length,
  };
}

/**
 * Forwards TCP to `target` unchanged. On connections that upgrade to WebSocket it reads the
 * client's frames as they pass (header, mask, the first bytes of the payload) and prints
 * `A <session> <ms>` when an AUDIO frame has fully arrived, by this process's clock.
 */
export async function runProxy(target: string): Promise<void> {
  const [host, port] = target.split(':') as [string, string];
  const server = createServer((client: Socket) => {
    const upstream = connect(Number(port), host);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    upstream.pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);

    let head: Buffer | undefined = Buffer.alloc(0);
    let sessionId = '';
    let frames: Buffer | undefined;
    client.on('data', (data: Buffer) => {
      const at = performance.now();
      upstream.write(data);
      if (head) {
        head = Buffer.concat([head, data]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        const text = head.subarray(0, end).toString('latin1');
        const rest = head.subarray(end + 4);
        head = undefined;
        if (!/^upgrade:\s*websocket/im.test(text)) return;
        sessionId = /^ambient_session_id:\s*(\S+)/im.exec(text)?.[1] ?? 'unknown';
        frames = rest;
      } else if (frames) {
        frames = Buffer.concat([frames, data]);
      } else return;
      for (;;) {
        if (frames.length < 2) break;
        let length = (frames[1] as number) & 0x7f;
        let offset = 2;
        if (length === 126) {
          if (frames.length < 4) break;
          length = frames.readUInt16BE(2);
          offset = 4;
        } else if (length === 127) {
          if (frames.length < 10) break;
          length = Number(frames.readBigUInt64BE(2));
          offset = 10;
        }
        const masked = ((frames[1] as number) & 0x80) !== 0;
        const maskAt = offset;
        if (masked) offset += 4;
        if (frames.length < offset + length) break;
        const peek = Buffer.alloc(Math.min(16, length));
        for (let k = 0; k < peek.length; k++) {
          peek[k] = (frames[offset + k] as number) ^ (masked ? (frames[maskAt + (k & 3)] as number) : 0);
        }
        if (peek.toString('latin1').startsWith('{"type":"AUDIO"')) {
          process.stdout.write(`A ${sessionId} ${at.toFixed(3)}\n`);
        }
        frames = frames.subarray(offset + length);
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  console.log(`PROXY_PORT=${(server.address() as { port: number }).port}`);
  process.once('SIGTERM', () => process.exit(0));
}
