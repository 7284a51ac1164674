import {
  HANDSHAKE_CLOSE,
  type PageConfirm,
  type PageHello,
  type PageWelcome,
} from '../../shared/browser-mode-handshake';
import { ContractError, type ContractResult, type EventName, type ScribeApi } from '../../shared/contract';

import type { LinkState } from './link-state';
import type { PageCredential } from './page-credential';

export type { LinkState };

export interface SocketApi extends ScribeApi {
  onLinkState(listener: (state: LinkState) => void): () => void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const RECONNECT_DELAYS_MS = [250, 500, 1_000, 2_000, 4_000];
/**
 * Chunks held while the link to the host is down, sent in order when it returns: five minutes of
 * audio (about 9.6 MB). The host is on the same machine, so a longer outage means it is gone.
 */
const MAX_HELD_CHUNKS = 3_000;

/**
 * Browser mode's transport: the contract over the host's loopback WebSocket. Each socket opens
 * with the page's handshake (src/shared/browser-mode-handshake.ts): the page's credential, the
 * next one back, kept, confirmed. Calls made while the link is down wait for it; it reconnects
 * with backoff, except when the host refused the credential (only a new launch address helps).
 */
export function createSocketApi(url: string, credential: PageCredential): SocketApi {
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const linkListeners = new Set<(state: LinkState) => void>();
  let nextId = 1;
  let attempt = 0;
  let refused = false;
  let open: WebSocket | undefined;
  const heldChunks: ArrayBuffer[] = [];
  // Calls wait on `ready`; it is replaced by a fresh, unresolved promise whenever the link drops.
  let markReady: (socket: WebSocket) => void = () => undefined;
  let readyLink = new Promise<WebSocket>((resolve) => (markReady = resolve));

  let link: LinkState = 'connecting';
  const setLink = (state: LinkState) => {
    link = state;
    linkListeners.forEach((listener) => listener(state));
  };

  function connect(): void {
    const presented = credential.current();
    if (presented === undefined) {
      // Opened without the launch address (a bookmark, a copied address in another tab).
      refused = true;
      setLink('refused');
      return;
    }
    refused = false;
    setLink('connecting');
    const socket = new WebSocket(url);
    let ready = false;
    socket.binaryType = 'arraybuffer';
    socket.addEventListener('open', () =>
      socket.send(JSON.stringify({ hello: presented } satisfies PageHello)),
    );
    socket.addEventListener('message', (message) => {
      const text = String(message.data);
      if (ready) return receive(text);
      // The handshake's answer: keep the next credential before saying so, so that a reload at
      // any moment finds one the host still takes.
      const { welcome } = JSON.parse(text) as Partial<PageWelcome>;
      if (!welcome) return;
      credential.replace(welcome.pageToken);
      socket.send(JSON.stringify({ confirm: welcome.pageToken } satisfies PageConfirm));
      ready = true;
      attempt = 0;
      open = socket;
      // Chunks held during the outage go first, in capture order.
      for (const held of heldChunks.splice(0)) socket.send(held);
      markReady(socket);
      setLink('connected');
    });
    socket.addEventListener('close', (closed) => {
      open = undefined;
      for (const call of pending.values()) call.reject(new Error('The connection to the app core was lost.'));
      pending.clear();
      // Calls already waiting on a link that never opened keep waiting on the same promise.
      if (ready) {
        readyLink = new Promise<WebSocket>((resolve) => (markReady = resolve));
      }
      if (closed.code === HANDSHAKE_CLOSE.refused) {
        refused = true;
        setLink('refused');
        return;
      }
      setLink('lost');
      const delay = RECONNECT_DELAYS_MS[Math.min(attempt++, RECONNECT_DELAYS_MS.length - 1)];
      setTimeout(connect, delay);
    });
  }

  function receive(text: string): void {
    const message = JSON.parse(text) as
      { id: number; result: ContractResult<unknown> } | { event: EventName; payload: unknown };
    if ('id' in message) {
      const call = pending.get(message.id);
      pending.delete(message.id);
      if (!call) return;
      if (message.result.ok) call.resolve(message.result.value);
      else call.reject(new ContractError(message.result.error));
    } else {
      listeners.get(message.event)?.forEach((listener) => listener(message.payload));
    }
  }

  // A new launch address opened in this tab: try again with its key.
  credential.onNewKey(() => {
    if (refused) connect();
  });
  connect();

  return {
    async call(verb, ...[payload]) {
      const open = await readyLink;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        open.send(JSON.stringify({ id, verb, payload }));
      });
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (payload: unknown) => void);
      return () => set.delete(listener as (payload: unknown) => void);
    },
    sendChunk(message) {
      if (open?.readyState === WebSocket.OPEN) {
        // send() copies the bytes before it returns, so the caller may reuse `message`.
        open.send(message);
        return;
      }
      if (heldChunks.length >= MAX_HELD_CHUNKS) heldChunks.shift();
      heldChunks.push(message.slice(0));
    },
    onLinkState(listener) {
      // Said at once: the page may be refused before anyone listens (no credential at all).
      listener(link);
      linkListeners.add(listener);
      return () => linkListeners.delete(listener);
    },
  };
}
