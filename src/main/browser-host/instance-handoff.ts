/**
 * Browser mode's one instance per data directory, and the way a second launch hands the running
 * one a visit link (`--open-url`), as Electron's single-instance lock and `second-instance` do for
 * the desktop app. The running instance listens on a local socket: a Unix socket inside the data
 * directory (0700, so only its user reaches it), or on Windows a named pipe named after the
 * directory. One line of JSON each way; nothing but a link is accepted.
 */
import { createHash } from 'node:crypto';
import { chmodSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { VisitLinkReading } from '../../shared/visit-link';
import { MAX_VISIT_LINK_LENGTH } from '../../shared/visit-link';
import type { Logger } from '../core/ports';

/** A line longer than any link request: the socket is closed unread. */
const MAX_LINE_BYTES = MAX_VISIT_LINK_LENGTH + 256;
/** A peer that says nothing for this long is let go. */
const IDLE_MS = 5_000;

export function handoffAddress(dataDirectory: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') {
    const digest = createHash('sha256').update(dataDirectory.toLowerCase()).digest('hex').slice(0, 24);
    return `\\\\.\\pipe\\ambient-scribe-browser-${digest}`;
  }
  return join(dataDirectory, 'browser-mode.sock');
}

export interface HandoffListener {
  close(): Promise<void>;
}

/**
 * Listens for second launches. Resolves with `running` when another instance already answers on
 * this data directory (this one must not start); a socket file left by an instance that died is
 * removed first.
 */
export async function listenForHandoffs(
  address: string,
  onLink: (url: string) => VisitLinkReading,
  log: Logger,
): Promise<HandoffListener | 'running'> {
  if (await answers(address)) return 'running';
  if (!address.startsWith('\\\\')) removeStale(address);
  const server = createServer((socket) => serve(socket, onLink, log));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(address, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // A data directory whose path is too long for a socket (about 100 bytes): this instance runs,
    // but a second launch cannot find it, and says so when it starts one of its own.
    log.warn('browser mode: second launches cannot reach this instance', {
      error: (error as NodeJS.ErrnoException).code ?? (error as Error).name,
    });
    return { close: async () => undefined };
  }
  // The directory is 0700 already; the socket itself is the user's alone too.
  if (!address.startsWith('\\\\')) chmodSync(address, 0o600);
  return { close: () => closeServer(server) };
}

function serve(socket: Socket, onLink: (url: string) => VisitLinkReading, log: Logger): void {
  socket.setTimeout(IDLE_MS, () => socket.destroy());
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (text: string) => {
    buffered += text;
    if (Buffer.byteLength(buffered) > MAX_LINE_BYTES) {
      log.warn('browser mode: a second launch sent too much; ignored');
      socket.destroy();
      return;
    }
    const end = buffered.indexOf('\n');
    if (end < 0) return;
    socket.end(`${JSON.stringify(answer(buffered.slice(0, end), onLink))}\n`);
  });
  socket.on('error', () => socket.destroy());
}

function answer(line: string, onLink: (url: string) => VisitLinkReading): HandoffReply {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch {
    return { ok: false, problems: [{ field: 'request', rule: 'must be one line of JSON' }] };
  }
  const url = (request as { openUrl?: unknown } | null)?.openUrl;
  if (typeof url !== 'string')
    return { ok: false, problems: [{ field: 'openUrl', rule: 'must be the visit link' }] };
  const reading = onLink(url);
  return reading.ok ? { ok: true } : { ok: false, problems: reading.problems };
}

export type HandoffReply = { ok: true } | { ok: false; problems: { field: string; rule: string }[] };

/**
 * A second launch: gives the link to the instance running on this data directory. Resolves with
 * its reply, or `none` when no instance answers there (this launch then starts one itself).
 */
export async function handOff(address: string, url: string): Promise<HandoffReply | 'none'> {
  let socket: Socket;
  try {
    socket = await connect(address);
  } catch {
    return 'none';
  }
  return new Promise((resolve, reject) => {
    let reply = '';
    socket.setEncoding('utf8');
    socket.setTimeout(IDLE_MS, () => {
      socket.destroy();
      reject(new Error('The running instance did not answer within 5 seconds.'));
    });
    socket.on('data', (text: string) => (reply += text));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(JSON.parse(reply) as HandoffReply);
      } catch {
        reject(new Error('The running instance gave no answer.'));
      }
    });
    socket.write(`${JSON.stringify({ openUrl: url })}\n`);
  });
}

function connect(address: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(address);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

async function answers(address: string): Promise<boolean> {
  try {
    (await connect(address)).destroy();
    return true;
  } catch {
    return false;
  }
}

function removeStale(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
