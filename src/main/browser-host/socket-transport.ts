import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { AppCore } from '../core/app-core';
import type { Logger } from '../core/ports';

/**
 * Browser mode's wire format for the contract: one JSON object per text frame for calls, replies
 * and events; one binary frame per captured audio chunk (audio-chunk.ts), with no reply.
 */
const callSchema = z.object({
  id: z.number().int().nonnegative(),
  verb: z.string(),
  payload: z.unknown().optional(),
});

/** Close code for a frame that is not a contract call (RFC 6455 1003: unsupported data). */
const UNSUPPORTED_DATA = 1003;

/**
 * Carries the contract over one authenticated socket: calls go through the same router as
 * Electron IPC, and every core event is forwarded while the socket is open.
 */
export function serveContractOverSocket(socket: WebSocket, core: AppCore, log: Logger): void {
  const unsubscribe = core.events.subscribe((event, payload) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ event, payload }));
  });
  socket.on('close', () => {
    unsubscribe();
    // The page went away (reload, closed tab, crash): a visit it was capturing keeps recording
    // until the next page rejoins it (recorder.attach).
    core.rendererDetached();
  });

  socket.on('message', (data, isBinary) => {
    if (isBinary) {
      core.acceptChunk(data);
      return;
    }
    const call = parseCall(data.toString());
    if (!call) {
      log.warn('browser-mode socket sent a frame that is not a contract call; closing it');
      socket.close(UNSUPPORTED_DATA, 'expected a JSON contract call');
      return;
    }
    void core.router.dispatch(call.verb, call.payload).then((result) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ id: call.id, result }));
    });
  });
}

function parseCall(text: string): z.infer<typeof callSchema> | undefined {
  try {
    const parsed = callSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
