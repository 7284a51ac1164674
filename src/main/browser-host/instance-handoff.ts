/**
 * Browser mode's one instance per data directory, and the way a second launch hands the running
 * one a visit link (`--open-url`), as Electron's single-instance lock and `second-instance` do for
 * the desktop app. One line of JSON each way; nothing but a link is accepted. The running instance
 * listens where only its own user can find it (issue 28):
 *
 * - Unix: a socket inside the data directory (0700), itself 0600. A second launch hands its link
 *   over only to a socket that is a socket, owned by this user, in a directory of this user's that
 *   no one else may write to (`--data` may name a folder someone else made).
 * - Windows: a named pipe with a random name per running instance, written to a file in the data
 *   directory (this user's profile) that the second launch reads. Pipe names are one namespace for
 *   every user of the computer, and Node cannot give a pipe a DACL of its own (libuv creates it
 *   with the default security descriptor, and `readableAll`/`writableAll` only widen it), so a
 *   name another user could know would let them make the pipe first and be handed the link, or
 *   write to ours. Nobody else can read the file, so nobody else knows the name; libuv creates the
 *   pipe with FILE_FLAG_FIRST_PIPE_INSTANCE, so a name taken already fails rather than being shared.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, unlinkSync } from 'node:fs';
import { chmod, lstat, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import type { VisitLinkReading } from '../../shared/visit-link';
import { MAX_VISIT_LINK_LENGTH } from '../../shared/visit-link';
import type { Logger } from '../core/ports';

/** A line longer than any link request: the socket is closed unread. */
const MAX_LINE_BYTES = MAX_VISIT_LINK_LENGTH + 256;
/** A peer that says nothing for this long is let go. */
const IDLE_MS = 5_000;

/** Unix: the running instance's socket, in the data directory. */
export function handoffSocketPath(dataDirectory: string): string {
  return join(dataDirectory, 'browser-mode.sock');
}

/** Windows: the file in the data directory that names the running instance's pipe. */
export function pipeNameFile(dataDirectory: string): string {
  return join(dataDirectory, 'browser-mode.pipe');
}

const PIPE_PREFIX = '\\\\.\\pipe\\ambient-scribe-browser-';
/** The only names this app gives its pipes: local (`\\.\pipe\`), and 128 random bits. */
const PIPE_NAME = /^\\\\\.\\pipe\\ambient-scribe-browser-[0-9a-f]{32}$/;

/** A new pipe name for an instance that starts: nobody can guess it. */
export function newPipeName(): string {
  return `${PIPE_PREFIX}${randomBytes(16).toString('hex')}`;
}

/** Tells second launches the pipe's name: a file only this user reads (0600 where modes exist). */
export async function writePipeName(dataDirectory: string, name: string): Promise<void> {
  const file = pipeNameFile(dataDirectory);
  await writeFile(file, `${name}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
}

/**
 * The pipe the running instance named, or undefined when there is none (no file), or when the file
 * names anything but one of this app's local pipes: a second launch never connects elsewhere
 * (a `\\host\pipe\…` would carry the link off this computer).
 */
export async function readPipeName(dataDirectory: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(pipeNameFile(dataDirectory), 'utf8');
  } catch {
    return undefined;
  }
  const name = text.length <= 128 ? text.trim() : '';
  return PIPE_NAME.test(name) ? name : undefined;
}

/** Removes the pipe's name when this instance stops, unless a newer instance wrote its own since. */
export async function removePipeName(dataDirectory: string, name: string): Promise<void> {
  if ((await readPipeName(dataDirectory)) === name) await rm(pipeNameFile(dataDirectory), { force: true });
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
  dataDirectory: string,
  onLink: (url: string) => VisitLinkReading,
  log: Logger,
  platform: NodeJS.Platform = process.platform,
): Promise<HandoffListener | 'running'> {
  const windows = platform === 'win32';
  const running = windows ? await readPipeName(dataDirectory) : handoffSocketPath(dataDirectory);
  if (running !== undefined && (await answers(running))) return 'running';
  const address = windows ? newPipeName() : handoffSocketPath(dataDirectory);
  if (!windows) removeStale(address);
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
  if (windows) {
    await writePipeName(dataDirectory, address);
    return {
      close: async () => {
        await closeServer(server);
        await removePipeName(dataDirectory, address);
      },
    };
  }
  // The directory is 0700 already; the socket itself is the user's alone too.
  chmodSync(address, 0o600);
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

/** The socket is not one this user's own instance made: the link is not handed over. */
export class HandoffRefusedError extends Error {
  constructor(reason: string) {
    super(`The visit link was not handed over: ${reason}.`);
    this.name = 'HandoffRefusedError';
  }
}

/**
 * A second launch: gives the link to the instance running on this data directory. Resolves with
 * its reply, or `none` when no instance answers there (this launch then starts one itself).
 * Rejects with HandoffRefusedError when the Unix socket is not this user's own (checked first).
 */
export async function handOff(
  dataDirectory: string,
  url: string,
  platform: NodeJS.Platform = process.platform,
): Promise<HandoffReply | 'none'> {
  let address: string | undefined;
  if (platform === 'win32') {
    address = await readPipeName(dataDirectory);
    if (address === undefined) return 'none';
  } else {
    address = handoffSocketPath(dataDirectory);
    const check = await checkHandoffSocket(address);
    if (check === 'absent') return 'none';
    if (check !== 'ours') throw new HandoffRefusedError(check);
  }
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

/**
 * Unix: whether the path is a socket this user's own instance made: `absent` (nothing runs there),
 * `ours`, or why not, in words for the person at the terminal. `uid` is this process's (injected
 * by tests).
 */
export async function checkHandoffSocket(
  path: string,
  uid: number | undefined = process.getuid?.(),
): Promise<'absent' | 'ours' | string> {
  let socket;
  try {
    socket = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    return `${path} cannot be checked (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`;
  }
  if (!socket.isSocket())
    return `${path} is not a socket (remove it if no Ambient Scribe runs on this data directory)`;
  if (uid !== undefined && socket.uid !== uid)
    return `${path} belongs to another user (uid ${socket.uid}), not to you (uid ${uid})`;
  // stat, not lstat: a data directory reached through a symbolic link is judged by what it leads to.
  const directory = await stat(dirname(path));
  if (uid !== undefined && directory.uid !== uid)
    return `the data directory ${dirname(path)} belongs to another user (uid ${directory.uid}), not to you (uid ${uid})`;
  if ((directory.mode & 0o022) !== 0)
    return `the data directory ${dirname(path)} may be written by other users (mode ${(directory.mode & 0o777).toString(8)})`;
  return 'ours';
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
