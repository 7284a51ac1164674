import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceError } from '../errors';
import { jsonFile, type AtRestCipher } from '../persistence';
import { audioFile, createEmptyFile } from './audio-file';
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
  record(session: SessionRecord, type: string, detail?: string): void;
  setStatus(session: SessionRecord, status: string, detail?: string): void;
  save(session: SessionRecord): Promise<void>;
  /**
   * Resolves when every record save queued so far has landed. With `discardLaterWrites` (the
   * directory is about to be removed), saves and audio that come later (a stream closing late)
   * are dropped instead of writing into a directory that is gone. Without it they still land: a
   * sandbox restarted on the same directory continues from them.
   */
  close(options?: { discardLaterWrites?: boolean }): Promise<void>;
  /**
   * Deletes every session `drop` picks, record and audio; returns their ids. The embedding app
   * deletes a visit's session with the visit's own audio.
   */
  forget(drop: (id: string) => boolean): Promise<string[]>;
}

/**
 * Sessions live in the data directory: `<id>.json` for the record, `<id>.pcm` for the audio, so a
 * sandbox killed and restarted on the same directory continues every session where it stopped.
 * With a cipher both are sealed (`<id>.json.sealed`, `<id>.pcm.sealed`): nothing in the clear.
 */
export async function createSessionStore(
  dir: string,
  options: { now?: () => number; cipher?: AtRestCipher } = {},
): Promise<SessionStore> {
  const now = options.now ?? Date.now;
  const { cipher } = options;
  const suffix = cipher ? '.sealed' : '';
  const recordPath = (id: string) => join(dir, `${id}.json${suffix}`);
  const audioOf = (id: string) => audioFile(join(dir, `${id}.pcm${suffix}`), cipher);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const sessions = new Map<string, SessionRecord>();
  /** Closed, with later writes discarded (see close). */
  let discarding = false;
  for (const name of readdirSync(dir).filter((n) => n.endsWith(`.json${suffix}`))) {
    const record = await jsonFile<SessionRecord>(join(dir, name), cipher).read();
    if (!record) continue;
    // The audio file is the truth for how much arrived (a crash can stop the record's last save).
    record.receivedBytes = audioOf(record.id).size();
    // Whatever stream was open died with the old process; the session stays resumable.
    if (record.status === 'running' || record.status === 'paused') record.status = 'aborted';
    sessions.set(record.id, record);
  }
  // Audio whose record is gone (unreadable under this key, or never saved) can never be used.
  for (const name of readdirSync(dir).filter((n) => n.endsWith(`.pcm${suffix}`))) {
    if (!sessions.has(name.split('.', 1)[0]!)) rmSync(join(dir, name), { force: true });
  }

  const files = new Map<string, ReturnType<typeof jsonFile<SessionRecord>>>();
  const fileOf = (id: string) => {
    let file = files.get(id);
    if (!file) files.set(id, (file = jsonFile<SessionRecord>(recordPath(id), cipher)));
    return file;
  };

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
      createEmptyFile(join(dir, `${id}.pcm${suffix}`));
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
      // A session forgotten meanwhile stays forgotten (its stream may still be draining).
      if (discarding || !sessions.has(session.id)) return;
      audioOf(session.id).append(pcm);
      session.receivedBytes += pcm.length;
    },
    readAudio: async (session) => audioOf(session.id).read(),
    audioSha256: async (session) => createHash('sha256').update(audioOf(session.id).read()).digest('hex'),
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
    save: async (session) => {
      if (discarding || !sessions.has(session.id)) return;
      await fileOf(session.id).write(session);
    },
    close: async (options = {}) => {
      discarding = options.discardLaterWrites ?? false;
      await Promise.all([...files.values()].map((file) => file.flush()));
    },
    async forget(drop) {
      const gone = [...sessions.keys()].filter(drop);
      for (const id of gone) {
        sessions.delete(id);
        // A save already queued lands first, then both files go.
        await files.get(id)?.flush();
        files.delete(id);
        rmSync(recordPath(id), { force: true });
        rmSync(join(dir, `${id}.pcm${suffix}`), { force: true });
      }
      return gone;
    },
  };
  return store;
}
