/**
 * Test support for the stream client's tests against the real sandbox (no socket mocks): a
 * TokenSource over the sandbox's REST login, the /__sandbox/ control API, and a live "microphone".
 */
import { expect } from 'vitest';
import { createHash } from 'node:crypto';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../../sandbox/server';
import { ServiceClient, syntheticSpeech } from '../../../../sandbox/test-support/service-client';
import { TOKEN_OUTLIVES_THE_FILE } from '../../../../sandbox/test-support/token-lifetime';
import { fault } from '../auth/testing/sandbox-managers';
import { silentLogger, systemClock, type Logger } from '../ports';
import type { ServiceCredentials, TokenSource } from '../service/token-source';
import { createStreamClient, type StreamClient, type StreamClientOptions } from './stream-client';
import type { StreamLinkChange } from './stream-port';
import type { SandboxSession } from '../../../../sandbox/test-support/sandbox-process';

export const BEARER = {
  partner_id: 'demo-bearer',
  partner_token: 'sandbox-bearer-partner-token',
  provider_id: 'dr-stream-client',
};

/** Every service timer a hundred times faster, except the 25 s idle rule (5 s here), so a busy
 * 2-core machine that stalls a timer for a moment does not add reconnects the test did not ask for. */
export function testSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({
    timeScale: 0.01,
    asr: 'energy',
    ...options,
    limitOverrides: { idleAudioMs: 500_000, ...TOKEN_OUTLIVES_THE_FILE, ...options.limitOverrides },
  });
}

/** A TokenSource over the REST login: cached until expiry, a fresh login on renew(). */
export class LoginTokens implements TokenSource {
  logins = 0;
  renewals = 0;
  private credentials?: ServiceCredentials;

  constructor(private readonly baseUrl: () => string) {}

  async current(): Promise<ServiceCredentials> {
    if (this.credentials && this.credentials.expiresAt > Date.now()) return this.credentials;
    return this.login();
  }

  async renew(): Promise<ServiceCredentials> {
    this.renewals += 1;
    return this.login();
  }

  private async login(): Promise<ServiceCredentials> {
    const response = await fetch(`${this.baseUrl()}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(BEARER),
    });
    if (response.status !== 200) throw new Error(`login failed: HTTP ${response.status}`);
    const body = (await response.json()) as { service_token: string; expires_in: number };
    this.logins += 1;
    this.credentials = { serviceToken: body.service_token, expiresAt: Date.now() + body.expires_in * 1000 };
    return this.credentials;
  }
}

/** A REST client signed in as BEARER (registering the provider on first use). */
export async function restClient(sandbox: Sandbox): Promise<ServiceClient> {
  const client = new ServiceClient(sandbox.url);
  await client.signIn(BEARER);
  return client;
}

/** What the sandbox's control API says of a session: the shape the process tests read too. */
export type ControlSession = SandboxSession;

export async function controlSession(sandbox: Sandbox, id: string): Promise<ControlSession> {
  const response = await fetch(`${sandbox.url}/__sandbox/sessions/${id}`);
  return (await response.json()) as ControlSession;
}

export async function dropStream(sandbox: Sandbox, id: string, which: 'current' | 'next' = 'current') {
  await fault(sandbox, { action: 'drop_stream', which, session_id: id });
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Synthetic speech (voiced bursts and pauses), long enough for any test. */
export function speech(seconds: number, seed = 7): Buffer {
  const pattern = Array.from({ length: Math.ceil(seconds / 2) }, () => ({ speechMs: 1_400, silenceMs: 600 }));
  return syntheticSpeech(pattern, seed).subarray(0, seconds * 32_000);
}

export interface Harness {
  client: StreamClient;
  tokens: LoginTokens;
  changes: StreamLinkChange[];
  /** Every byte appended, in order: what the service must end up with. */
  appended(): Buffer;
  append(pcm: Uint8Array): void;
  /** Appends 100 ms chunks of `source` in real time (one per 100 ms) until stopped. */
  startLive(source: Buffer): { stop(): void };
  waitForLink(state: StreamLinkChange['state'], after?: number, timeoutMs?: number): Promise<number>;
}

export function harness(
  sandbox: () => Sandbox,
  sessionId: string,
  overrides: Partial<StreamClientOptions> = {},
  log: Logger = silentLogger,
): Harness {
  const tokens = new LoginTokens(() => sandbox().url);
  const client = createStreamClient({
    endpoint: { baseUrl: sandbox().url },
    sessionId,
    tokens,
    clock: systemClock,
    log,
    reconnect: { firstDelayMs: 50, maxDelayMs: 400, offlineAfterAttempts: 3 },
    ...overrides,
  });
  const changes: StreamLinkChange[] = [];
  client.onLinkChange((change) => changes.push(change));
  const pieces: Buffer[] = [];
  const append = (pcm: Uint8Array) => {
    pieces.push(Buffer.from(pcm));
    client.sendAudio(pcm);
  };
  return {
    client,
    tokens,
    changes,
    appended: () => Buffer.concat(pieces),
    append,
    startLive(source) {
      let offset = 0;
      const timer = setInterval(() => {
        if (offset >= source.length) offset = 0;
        append(source.subarray(offset, offset + 3_200));
        offset += 3_200;
      }, 100);
      return { stop: () => clearInterval(timer) };
    },
    /** Resolves with the index of the first change to `state` at or after index `after`. */
    async waitForLink(state, after = 0, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = changes.findIndex((c, i) => i >= after && c.state === state);
        if (index >= 0) return index;
        if (Date.now() > deadline) {
          throw new Error(`link never became ${state}: ${changes.map((c) => c.state).join(' → ')}`);
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    },
  };
}

export async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The states a link went through, in order. */
export const states = (changes: { state: string }[]) => changes.map((c) => c.state);

/** The service holds exactly `pcm` for the session: the same byte count and SHA-256. */
export async function expectServiceHas(box: Sandbox, id: string, pcm: Buffer): Promise<void> {
  const seen = await controlSession(box, id);
  expect(seen.received_bytes).toBe(pcm.length);
  expect(seen.pcm_sha256).toBe(sha256(pcm));
}
