import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { FailureNotification, SuccessNotification } from '../../src/shared/service';
import { createTiming, type LimitName, type Timing } from '../limits';

/** Shared by the webhook tests: real loopback servers, sample payloads, quiet logs. */

export interface SeenRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** performance.now() when the request's body had arrived. */
  arrivedAt: number;
}

/** What a scripted server does with its n-th request (0-based): answer with a status, or never. */
export type Script = (index: number) => number | 'hang';

export interface ScriptedServer {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export async function startScriptedServer(script: Script): Promise<ScriptedServer> {
  const requests: SeenRequest[] = [];
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = requests.length;
      requests.push({
        method: req.method ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        arrivedAt: performance.now(),
      });
      const action = script(index);
      if (action === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(action, { 'content-type': 'application/json' }).end(JSON.stringify({ index }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/notification`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port that was free a moment ago, so connecting to it is refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/webhooks/notification`;
}

/** Time-scaled timing with some limits pinned to real values (e.g. a generous timeout on a busy CI box). */
export function testTiming(scale: number, pinned: Partial<Record<LimitName, number>> = {}): Timing {
  const base = createTiming(scale);
  return { ...base, ms: (name) => pinned[name] ?? base.ms(name) };
}

export function quietLog() {
  const lines: string[] = [];
  const push = (level: string) => (message: string, _fields?: Record<string, unknown>) =>
    void lines.push(`${level}: ${message}`);
  return { lines, info: push('info'), warn: push('warn'), error: push('error') };
}

export const SECRET = 'partner-webhook-secret-0001';

export function successPayload(sessionId = 'b6f0c1de-0000-4000-8000-000000000001'): SuccessNotification {
  return {
    status: 'success',
    session_id: sessionId,
    encounter_id: 'enc42',
    sessions: [{ session_id: sessionId, status: 'completed' }],
    additional_info: { asr: 'energy' },
    _links: {
      contents: [{ method: 'GET', href: `/api/v1/ambient/session/${sessionId}/content`, name: 'contents' }],
    },
  };
}

export function failurePayload(sessionId = 'b6f0c1de-0000-4000-8000-000000000002'): FailureNotification {
  return {
    status: 'failure',
    session_id: sessionId,
    encounter_id: 'enc42',
    error_code: 'ERROR_CODE_NO_SPEECH',
    error_detail: 'no speech was detected',
  };
}
