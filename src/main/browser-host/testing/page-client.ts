import WebSocket from 'ws';
import { LAUNCH_KEY_PARAMETER } from '../../../shared/browser-mode-handshake';

/**
 * Browser mode's contract socket opened from Node the way the app's page opens it (its origin,
 * then the handshake of src/shared/browser-mode-handshake.ts), for tests and probes. A refusal is
 * an error naming what answered: `refused <HTTP status>` at the upgrade, `closed <code>` after.
 */
/**
 * Paths a lenient router could take for the contract's (decoded, slashes merged, any case): the
 * issue found `/%63ontract` opening the socket from another origin. Only `/contract` may open.
 */
export const CONTRACT_PATH_LOOKALIKES = [
  '/%63ontract',
  '/c%6fntract',
  '/%63%6fntract',
  '//contract',
  '/CONTRACT',
  '/contract/',
];

export interface OpenedPageSocket {
  socket: WebSocket;
  /** The credential for the next connection, as the page would keep it. */
  pageToken: string;
}

export function launchKeyOf(launchUrl: string): string {
  const key = new URLSearchParams(new URL(launchUrl).hash.slice(1)).get(LAUNCH_KEY_PARAMETER);
  if (!key) throw new Error('the launch address has no key in its fragment');
  return key;
}

/** Opens the socket with `headers` (origin…) at `path`, without any handshake: the raw upgrade. */
export function openRawSocket(
  origin: string,
  headers: Record<string, string>,
  path = '/contract',
): Promise<WebSocket> {
  const socket = new WebSocket(`${origin.replace('http', 'ws')}${path}`, { headers });
  return new Promise((resolve, reject) => {
    // A refusal is an answer with a status; an upgrade left hanging is a failure too.
    const timer = setTimeout(() => reject(new Error('no answer in 3 s')), 3_000);
    socket.once('open', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('unexpected-response', (_request, response) => {
      clearTimeout(timer);
      reject(new Error(`refused ${response.statusCode}`));
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Sends `hello`, waits for the welcome, confirms (unless told not to): the page's opening. */
export async function openAsPage(
  origin: string,
  credential: string,
  options: { confirm?: boolean } = {},
): Promise<OpenedPageSocket> {
  const socket = await openRawSocket(origin, { origin });
  return new Promise((resolve, reject) => {
    const onClose = (code: number) => reject(new Error(`closed ${code}`));
    socket.once('close', onClose);
    socket.once('message', (data: WebSocket.RawData) => {
      const { welcome } = JSON.parse(data.toString()) as { welcome?: { pageToken: string } };
      if (!welcome) return reject(new Error(`expected a welcome, got ${data.toString().slice(0, 80)}`));
      socket.off('close', onClose);
      if (options.confirm !== false) socket.send(JSON.stringify({ confirm: welcome.pageToken }));
      resolve({ socket, pageToken: welcome.pageToken });
    });
    socket.send(JSON.stringify({ hello: credential }));
  });
}

/** One contract call on an opened socket; resolves with its result. */
export function callOnSocket(
  socket: WebSocket,
  id: number,
  verb: string,
  payload?: unknown,
): Promise<unknown> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
      if (message.id === id) {
        socket.off('message', onMessage);
        resolve(message.result);
      }
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, verb, payload }));
  });
}

/** The close code a socket ends with (or `open` if it is still open after `withinMs`). */
export function closeCodeOf(socket: WebSocket, withinMs = 3_000): Promise<number | 'open'> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve(-1);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('open'), withinMs);
    socket.once('close', (code: number) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}
