import type { WebSocket } from 'ws';
import { z } from 'zod';
import { HANDSHAKE_CLOSE } from '../../shared/browser-mode-handshake';
import type { Logger } from '../core/ports';
import type { PageCapability, PageTokenOffer } from './page-capability';

const helloSchema = z.object({ hello: z.string() }).strict();
const confirmSchema = z.object({ confirm: z.string() }).strict();

/** Long enough for a page on a busy laptop; short enough that idle sockets do not pile up. */
const HANDSHAKE_TIMEOUT_MS = 10_000;

/**
 * Runs the page's handshake (src/shared/browser-mode-handshake.ts) on a freshly opened contract
 * socket: a hello with the launch key or the last page token, the welcome with the next token, the
 * page's confirmation. Only then is `authenticated` called (synchronously with the confirmation,
 * so the next frame already reaches the contract). Anything else (a wrong or spent credential, a
 * contract call or audio before the confirmation, silence) closes the socket with a code that says
 * which, and nothing of the app is read or sent on it.
 */
export function runPageHandshake(
  socket: WebSocket,
  capability: PageCapability,
  authenticated: () => void,
  deps: { warn: Logger['warn']; timeoutMs?: number },
): void {
  let offer: PageTokenOffer | undefined;
  const timer = setTimeout(() => {
    deps.warn('browser mode: a contract socket did not identify itself in time; closing it');
    socket.close(HANDSHAKE_CLOSE.timedOut, 'no hello in time');
  }, deps.timeoutMs ?? HANDSHAKE_TIMEOUT_MS);
  const refuse = (reason: string) => {
    clearTimeout(timer);
    socket.off('message', onMessage);
    deps.warn(`browser mode: refused a contract socket (${reason})`);
    socket.close(HANDSHAKE_CLOSE.refused, 'not the app’s page');
  };

  function onMessage(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void {
    const frame = isBinary ? undefined : parseJson(data.toString());
    if (!offer) {
      const hello = helloSchema.safeParse(frame);
      offer = hello.success ? capability.present(hello.data.hello) : undefined;
      if (!offer) return refuse(hello.success ? 'wrong or spent credential' : 'first frame not a hello');
      socket.send(JSON.stringify({ welcome: { pageToken: offer.pageToken } }));
      return;
    }
    const confirm = confirmSchema.safeParse(frame);
    if (!confirm.success || !offer.confirm(confirm.data.confirm)) {
      return refuse(confirm.success ? 'token replaced by a later page' : 'second frame not a confirmation');
    }
    clearTimeout(timer);
    socket.off('message', onMessage);
    authenticated();
  }

  socket.on('message', onMessage);
  socket.once('close', () => clearTimeout(timer));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
