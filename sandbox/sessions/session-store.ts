import { randomUUID } from 'node:crypto';
import { appendFileSync, createReadStream, mkdirSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ServiceError } from '../errors';
import { jsonFile } from '../persistence';
import type { SessionKind, SessionRecord, TimelineEvent } from './session-record';

const MAX_TIMELINE = 10_000;

export interface Owner {
  partnerId: string;
  providerId: string;
}

export interface SessionStore {
  create(kind: SessionKind, encounterId: string, owner: Owner, id?: string): Promise<SessionRecord>;
  get(id: string): SessionRecord | undefined;
  /** The caller's own session of this kind, or 404 session_not_found (never another provider's). */
  owned(id: string, owner: Owner, kind: SessionKind): SessionRecord;
  list(): SessionRecord[];
  /** Appends accepted audio to disk before it counts as received (an ACK must survive a crash). */
  appendAudio(session: SessionRecord, pcm: Buffer): void;
  readAudio(session: SessionRecord): Promise<Buffer>;
  audioSha256(session: SessionRecord): Promise<string>;
  audioPath(session: SessionRecord): string;
  record(session: SessionRecord, type: string, detail?: string): void;
  setStatus(session: SessionRecord, status: string, detail?: string): void;
  save(session: SessionRecord): Promise<void>;
  /** Resolves when every record save queued so far has landed (before the directory is removed). */
  flush(): Promise<void>;
}

/**
 * Sessions live in the data directory: `<id>.json` for the record, `<id>.pcm` for the audio, so a
 * sandbox killed and restarted on the same directory continues every session where it stopped.
 */
export async function createSessionStore(dir: string, now: () => number = Date.now): Promise<SessionStore> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const sessions = new Map<string, SessionRecord>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const record = await jsonFile<SessionRecord>(join(dir, name)).read();
    if (!record) continue;
    // The audio file is the truth for how much arrived (a crash can stop the record's last save).
    record.receivedBytes = sizeOf(join(dir, `${record.id}.pcm`));
    // Whatever stream was open died with the old process; the session stays resumable.
    if (record.status === 'running' || record.status === 'paused') record.status = 'aborted';
    sessions.set(record.id, record);
  }

  const files = new Map<string, ReturnType<typeof jsonFile<SessionRecord>>>();
  const fileOf = (id: string) => {
    let file = files.get(id);
    if (!file) files.set(id, (file = jsonFile<SessionRecord>(join(dir, `${id}.json`))));
    return file;
  };
  const audioPath = (session: SessionRecord) => join(dir, `${session.id}.pcm`);

  const store: SessionStore = {
    async create(kind, encounterId, owner, id = randomUUID()) {
      // protocol: Ambient session (an id already in use → 409)
      if (sessions.has(id))
        throw new ServiceError(409, 'session_conflict', 'that session id is already in use');
      const session: SessionRecord = {
        id,
        kind,
        encounterId,
        partnerId: owner.partnerId,
        providerId: owner.providerId,
        createdAt: now(),
        status: 'created',
        context: {},
        formItems: [],
        receivedBytes: 0,
        connections: 0,
        timeline: [],
        feedback: [],
      };
      sessions.set(id, session);
      appendFileSync(audioPath(session), Buffer.alloc(0), { mode: 0o600 });
      store.record(session, 'status:created');
      await store.save(session);
      return session;
    },
    get: (id) => sessions.get(id),
    owned(id, owner, kind) {
      const session = sessions.get(id);
      if (
        !session ||
        session.kind !== kind ||
        session.partnerId !== owner.partnerId ||
        session.providerId !== owner.providerId
      ) {
        throw new ServiceError(404, 'session_not_found', 'no such session for this provider');
      }
      return session;
    },
    list: () => [...sessions.values()],
    appendAudio(session, pcm) {
      appendFileSync(audioPath(session), pcm, { mode: 0o600 });
      session.receivedBytes += pcm.length;
    },
    readAudio: (session) => readFile(audioPath(session)),
    audioSha256: (session) =>
      new Promise((resolve, reject) => {
        const hash = createHash('sha256');
        createReadStream(audioPath(session))
          .on('data', (chunk) => hash.update(chunk))
          .on('end', () => resolve(hash.digest('hex')))
          .on('error', reject);
      }),
    audioPath,
    record(session, type, detail) {
      const event: TimelineEvent = detail === undefined ? { at: now(), type } : { at: now(), type, detail };
      session.timeline.push(event);
      if (session.timeline.length > MAX_TIMELINE)
        session.timeline.splice(0, session.timeline.length - MAX_TIMELINE);
    },
    setStatus(session, status, detail) {
      if (session.status === status) return;
      session.status = status;
      store.record(session, `status:${status}`, detail);
      void store.save(session);
    },
    save: (session) => fileOf(session.id).write(session),
    flush: async () => {
      await Promise.all([...files.values()].map((file) => file.flush()));
    },
  };
  return store;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
