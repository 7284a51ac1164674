/**
 * A deliberately plain client of the service interface for the sandbox's contract tests: it knows
 * only the spec and docs/protocol.md (paths, headers, message shapes), nothing of the sandbox.
 */
import WebSocket from 'ws';

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
}

export class ServiceClient {
  token?: string;
  providerHeader?: string;

  constructor(readonly baseUrl: string) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      ...(this.token ? { sdp_service_token: this.token } : {}),
      ...(this.providerHeader ? { sdp_provider_id: this.providerHeader } : {}),
      ...extra,
    };
  }

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<Reply<T>> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...this.headers(extraHeaders),
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
  }

  /** Login, registering first if the service says the provider is unknown (the spec's flow). */
  async signIn(login: { partner_id: string; partner_token: string; provider_id?: string }): Promise<string> {
    let reply = await this.call<{ service_token: string }>('POST', '/api/v1/auth/login', login);
    if (reply.status === 401) {
      await this.call('POST', '/api/v1/auth/register', {
        ...login,
        provider_name: 'Dr Demo',
        provider_org_id: 'org-1',
      });
      reply = await this.call<{ service_token: string }>('POST', '/api/v1/auth/login', login);
    }
    if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    this.token = reply.body.service_token;
    return this.token;
  }

  async createSession(encounterId = 'enc1', id?: string): Promise<string> {
    const reply = await this.call<{ ambient_session_id: string }>('POST', '/api/v1/ambient/session/create', {
      encounter_id: encounterId,
      ...(id ? { ambient_session_id: id } : {}),
    });
    if (reply.status !== 201) throw new Error(`create failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.ambient_session_id;
  }

  openStream(sessionId: string, headers: Record<string, string> = {}): Promise<StreamClient> {
    const socket = new WebSocket(`${this.baseUrl.replace(/^http/, 'ws')}/ws/stream`, {
      headers: { ...this.headers(), ambient_session_id: sessionId, ...headers },
    });
    return new Promise((resolve, reject) => {
      const stream = new StreamClient(socket);
      socket.once('open', () => resolve(stream));
      socket.once('unexpected-response', (_request, response) =>
        reject(new UpgradeRefused(response.statusCode ?? 0)),
      );
      socket.once('error', reject);
    });
  }

  async waitForStatus(path: string, wanted: string[], timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { body } = await this.call<{ status: string }>('GET', path);
      if (wanted.includes(body.status)) return body.status;
      if (Date.now() > deadline) throw new Error(`status stayed ${body.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export class UpgradeRefused extends Error {
  constructor(readonly status: number) {
    super(`upgrade refused with HTTP ${status}`);
  }
}

export class StreamClient {
  readonly acks: number[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type?: string; received_bytes?: number };
      if (message.type === 'ACK' && typeof message.received_bytes === 'number')
        this.acks.push(message.received_bytes);
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  audio(pcm: Buffer): void {
    this.socket.send(JSON.stringify({ type: 'AUDIO', data: pcm.toString('base64') }));
  }

  event(event: string): void {
    this.socket.send(JSON.stringify({ type: 'EVENT', event }));
  }

  /** Sends pcm in 100 ms chunks (3,200 bytes) as fast as the socket takes them. */
  audioChunks(pcm: Buffer, chunkBytes = 3_200): void {
    for (let offset = 0; offset < pcm.length; offset += chunkBytes)
      this.audio(pcm.subarray(offset, offset + chunkBytes));
  }

  lastAck(): number {
    return this.acks.at(-1) ?? -1;
  }

  async waitForAck(bytes: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.lastAck() < bytes) {
      if (Date.now() > deadline) throw new Error(`ACK stayed at ${this.lastAck()}, wanted ${bytes}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

/** A speech-like test signal: 16 kHz Int16 LE, voiced bursts (formant-ish harmonics) and silences. */
export function syntheticSpeech(pattern: { speechMs: number; silenceMs: number }[], seed = 1): Buffer {
  const totalMs = pattern.reduce((sum, p) => sum + p.speechMs + p.silenceMs, 0);
  const pcm = Buffer.alloc(totalMs * 32);
  let sample = 0;
  let random = seed;
  for (const { speechMs, silenceMs } of pattern) {
    for (let i = 0; i < speechMs * 16; i++, sample++) {
      const t = sample / 16_000;
      const envelope = 0.5 + 0.5 * Math.sin(2 * Math.PI * 4 * t);
      const voiced =
        Math.sin(2 * Math.PI * 140 * t) +
        0.5 * Math.sin(2 * Math.PI * 700 * t) +
        0.3 * Math.sin(2 * Math.PI * 1200 * t);
      pcm.writeInt16LE(Math.round(6000 * envelope * voiced), sample * 2);
    }
    for (let i = 0; i < silenceMs * 16; i++, sample++) {
      random = (random * 1103515245 + 12345) & 0x7fffffff;
      pcm.writeInt16LE(((random % 41) - 20) | 0, sample * 2);
    }
  }
  return pcm;
}
