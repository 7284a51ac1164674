/** The reference's stream: a bare `ws` connection to the sandbox, with no core behind it. */
import WebSocket from 'ws';
import type { ServiceClient } from '../../sandbox/test-support/service-client';
import { CHUNK_BYTES, PARTNER } from './constants';
import { countInto } from './tools';
import { chunkBase64 } from './visit';

/**
 * Sends AUDIO and EVENT frames straight to the sandbox: resumes from the first ACK after each
 * upgrade (4001 at the token's end: signs in again), resends what the service has not
 * acknowledged, keeps nothing else. The recorder's pause policy is copied in `referenceReplay`.
 */
export class BareStream {
  private socket: WebSocket | undefined;
  private resumed = false;
  /** Plan indices appended and not yet acknowledged; `base` chunks precede the first of them. */
  private unacked: number[] = [];
  private base = 0;
  private appended = 0;
  private finishing = false;
  paused = false;
  connections = 0;
  closes: Record<string, number> = {};
  readonly finished: Promise<void>;
  private resolveFinished!: () => void;

  constructor(
    private readonly client: ServiceClient,
    private readonly sessionId: string,
    private readonly plan: Uint8Array,
  ) {
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
  }

  get open(): boolean {
    return this.resumed && this.socket?.readyState === WebSocket.OPEN;
  }

  connect(): void {
    this.resumed = false;
    this.connections++;
    const socket = new WebSocket(`${this.client.baseUrl.replace(/^http/, 'ws')}/ws/stream`, {
      headers: { ...this.client.headers(), ambient_session_id: this.sessionId },
      perMessageDeflate: false,
    });
    this.socket = socket;
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type?: string; received_bytes?: number };
      if (message.type !== 'ACK' || typeof message.received_bytes !== 'number') return;
      while (this.unacked.length > 0 && (this.base + 1) * CHUNK_BYTES <= message.received_bytes) {
        this.unacked.shift();
        this.base++;
      }
      if (!this.resumed) {
        this.resumed = true;
        for (const i of this.unacked) this.frame(i);
        if (this.paused) this.send({ type: 'EVENT', event: 'PAUSE' });
        if (this.finishing) this.send({ type: 'EVENT', event: 'EOF' });
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', (code) => {
      countInto(this.closes, String(code));
      if (socket !== this.socket) return;
      if (this.finishing && code === 1000 && this.unacked.length === 0) return this.resolveFinished();
      if (code === 4001) {
        void this.client.signIn(login('dr-bench-reference')).then(() => this.connect());
      } else setTimeout(() => this.connect(), 250);
    });
  }

  audio(i: number): void {
    this.unacked.push(i);
    this.appended++;
    if (this.open) this.frame(i);
  }

  event(event: 'PAUSE' | 'RESUME' | 'KEEP_ALIVE'): void {
    if (this.open) this.send({ type: 'EVENT', event });
  }

  finish(): Promise<void> {
    this.finishing = true;
    if (this.open) this.send({ type: 'EVENT', event: 'EOF' });
    return this.finished;
  }

  private frame(i: number): void {
    this.send({ type: 'AUDIO', data: chunkBase64(this.plan, i) });
  }

  private send(message: object): void {
    this.socket?.send(JSON.stringify(message));
  }
}

export const login = (providerId: string) => ({
  partner_id: PARTNER.partnerId,
  partner_token: PARTNER.token,
  provider_id: providerId,
});
