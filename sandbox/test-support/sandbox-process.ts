import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { FaultRequest } from '../control/faults';

/** What `GET /__sandbox/sessions/:id` says about a session (the fields the tests read). */
export interface SandboxSession {
  id: string;
  kind: 'ambient' | 'form';
  encounter_id: string;
  status: string;
  received_bytes: number;
  pcm_sha256: string;
  connections: number;
  /** WebSocket pings read on its stream connections. */
  pings: number;
  stream_open: boolean;
  timeline: { at: number; type: string; detail?: string }[];
}

export interface SandboxProcessOptions {
  /** Sessions, their audio, providers and the token key: kept across kill and restart. */
  dataDir: string;
  /** Multiplies every service timer (docs/protocol.md "Sandbox: time scale"). */
  timeScale: number;
  /** auto: pocketsphinx when installed (as the built-in sandbox), else energy segments. */
  asr?: 'auto' | 'pocketsphinx' | 'energy';
  minSpeechMs?: number;
  /** false: `--no-ack`, a service without the ACK extension (the production interface names none). */
  ack?: boolean;
  /**
   * built (the default): `out/main/sandbox.js`, what `npm run sandbox` runs, for end-to-end tests
   * of the built app. source: `sandbox/main.ts` through tsx, for the contract tier, which must not
   * depend on a build.
   */
  entry?: 'built' | 'source';
}

/**
 * The sandbox as its own process (`node out/main/sandbox.js`, what `npm run sandbox` runs), so a
 * test can kill it, stop it and start it again on the same port and data directory while the app
 * keeps the same service URL.
 */
export interface SandboxProcess {
  /** http://127.0.0.1:PORT; the same across restarts. */
  readonly url: string;
  readonly dataDir: string;
  /** Whether the process is up (between start and kill/stop). */
  readonly running: boolean;
  /** SIGKILL: no handler runs, open streams die with the process (as a crash or power cut). */
  kill(): Promise<void>;
  /** SIGTERM: the sandbox closes its streams and saves its sessions, then exits. */
  stop(): Promise<void>;
  /** Starts it again after kill() or stop(), on the same port and data directory. */
  start(): Promise<void>;
  /** stop() (when running), then start(). */
  restart(): Promise<void>;
  /** POST /__sandbox/faults; throws unless the sandbox answers 200. */
  faults(fault: FaultRequest): Promise<void>;
  session(id: string): Promise<SandboxSession>;
  /** The session's received audio (LINEAR16, without the WAV header). */
  audio(id: string): Promise<Buffer>;
  sessions(): Promise<SandboxSession[]>;
  /** The one session of this kind the app created for an encounter (throws if none or several). */
  sessionOf(encounterId: string, kind?: SandboxSession['kind']): Promise<SandboxSession>;
  /** What the process wrote to stderr (for a failing test's report). */
  readonly log: string[];
}

/**
 * How long a sandbox process may take to say where it listens. It is a safety net, not a measure:
 * the wait ends at the SANDBOX_URL line or at the process's exit, whichever comes. On a machine
 * half as fast, three test files starting sandboxes at once took longer than the 15 s it was
 * (issue 36: the test's timing).
 */
const READY_TIMEOUT_MS = 60_000;
/** After a kill the port is free at once on Linux; a few retries cover a socket still closing. */
const BIND_RETRY_MS = 5_000;

export async function startSandboxProcess(options: SandboxProcessOptions): Promise<SandboxProcess> {
  const log: string[] = [];
  let child: ChildProcess | undefined;
  let port = 0;

  const launch = async (): Promise<void> => {
    const deadline = Date.now() + BIND_RETRY_MS;
    for (;;) {
      const started = await spawnOnce(port, options, log);
      if ('url' in started) {
        child = started.child;
        port = Number(new URL(started.url).port);
        return;
      }
      if (!started.portInUse || port === 0 || Date.now() > deadline) throw new Error(started.error);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const exited = (process: ChildProcess | undefined) =>
    !process || process.exitCode !== null || process.signalCode !== null;

  const signal = async (name: 'SIGKILL' | 'SIGTERM') => {
    const process = child;
    child = undefined;
    if (exited(process)) return;
    process!.kill(name);
    await once(process!, 'exit');
  };

  const api = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const response = await fetch(`${sandbox.url}${path}`, init);
    const text = await response.text();
    if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${path}: HTTP ${response.status} ${text}`);
    return JSON.parse(text) as T;
  };

  await launch();
  const sandbox: SandboxProcess = {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    dataDir: options.dataDir,
    get running() {
      return !exited(child);
    },
    kill: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
    start: () => (exited(child) ? launch() : Promise.resolve()),
    async restart() {
      await signal('SIGTERM');
      await launch();
    },
    async faults(fault) {
      await api('/__sandbox/faults', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(fault),
      });
    },
    session: (id) => api<SandboxSession>(`/__sandbox/sessions/${encodeURIComponent(id)}`),
    async audio(id) {
      const response = await fetch(`${sandbox.url}/__sandbox/sessions/${encodeURIComponent(id)}/audio.wav`);
      if (!response.ok) throw new Error(`audio of ${id}: HTTP ${response.status}`);
      return Buffer.from(await response.arrayBuffer()).subarray(44);
    },
    sessions: async () => (await api<{ sessions: SandboxSession[] }>('/__sandbox/sessions')).sessions,
    async sessionOf(encounterId, kind = 'ambient') {
      const found = (await sandbox.sessions()).filter(
        (s) => s.encounter_id === encounterId && s.kind === kind,
      );
      if (found.length !== 1)
        throw new Error(`${found.length} ${kind} sessions for encounter ${encounterId} at the sandbox`);
      return found[0]!;
    },
    log,
  };
  return sandbox;
}

type Spawned = { url: string; child: ChildProcess } | { error: string; portInUse: boolean };

async function spawnOnce(port: number, options: SandboxProcessOptions, log: string[]): Promise<Spawned> {
  const entry = options.entry === 'source' ? ['--import', 'tsx', 'sandbox/main.ts'] : ['out/main/sandbox.js'];
  const child = spawn(
    process.execPath,
    [
      ...entry,
      '--port',
      String(port),
      '--data',
      options.dataDir,
      '--time-scale',
      String(options.timeScale),
      '--asr',
      options.asr ?? 'auto',
      ...(options.minSpeechMs !== undefined ? ['--min-speech-ms', String(options.minSpeechMs)] : []),
      ...(options.ack === false ? ['--no-ack'] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  createInterface({ input: child.stderr! }).on('line', (line) => log.push(line));
  const stdout = createInterface({ input: child.stdout! });
  return new Promise<Spawned>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({
        error: `the sandbox did not print SANDBOX_URL within ${READY_TIMEOUT_MS} ms`,
        portInUse: false,
      });
    }, READY_TIMEOUT_MS);
    stdout.on('line', (line) => {
      if (!line.startsWith('SANDBOX_URL=')) return;
      clearTimeout(timer);
      resolve({ url: line.slice('SANDBOX_URL='.length), child });
    });
    // 'close', not 'exit': stderr has been read to its end by then.
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const said = log.slice(-5).join('\n');
      resolve({
        error: `the sandbox exited (${signal ?? code}) before it was ready:\n${said}`,
        portInUse: said.includes('EADDRINUSE'),
      });
    });
  });
}
