import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface StartupHold {
  /** Where the WebSocket plugin listens for upgrades (in place of the server itself). */
  readonly upgrades: EventEmitter;
  /** Fastify's request handler (its serverFactory's), called once the server is open. */
  setRequestHandler(handler: RequestHandler): void;
  /** The routes are in place: hands on what arrived before, in order, and everything after. */
  open(): void;
}

/**
 * The sandbox listens before its routes exist: its identity provider and its notification links
 * need the real port. Whatever arrived in between had no listener and was never answered, so a
 * client waited out its own timeout: a stream client that retried while a restarted sandbox was
 * starting on the same port hung for its 10 s connect timeout (stream-client-reconnect's test, 3 of
 * 14 tries at half speed; once past vitest's 40 s). This holds those requests and upgrades from the
 * moment the server listens and hands them on once it is open: answered late, never left hanging.
 */
export function holdUntilReady(server: Server): StartupHold {
  const upgrades = new EventEmitter();
  let handle: RequestHandler | undefined;
  let open = false;
  const heldRequests: [IncomingMessage, ServerResponse][] = [];
  const heldUpgrades: [IncomingMessage, Duplex, Buffer][] = [];
  // Node takes its own error listener off a socket before it emits 'upgrade': a client that gives
  // up while held must not take the process down.
  const ignoreError = () => {};

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (open && handle) handle(request, response);
    else heldRequests.push([request, response]);
  });
  // Listening for 'upgrade' from the start also keeps Node from treating an early upgrade as a
  // plain request.
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (open) {
      upgrades.emit('upgrade', request, socket, head);
      return;
    }
    socket.on('error', ignoreError);
    heldUpgrades.push([request, socket, head]);
  });

  return {
    upgrades,
    setRequestHandler(handler) {
      handle = handler;
    },
    open() {
      if (!handle) throw new Error('the server has no request handler to open with');
      open = true;
      for (const [request, response] of heldRequests.splice(0)) handle(request, response);
      for (const [request, socket, head] of heldUpgrades.splice(0)) {
        socket.off('error', ignoreError);
        if (socket.destroyed) continue;
        upgrades.emit('upgrade', request, socket, head);
      }
    },
  };
}
