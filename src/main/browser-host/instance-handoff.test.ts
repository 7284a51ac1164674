import { chmod, chown, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readVisitLink } from '../../shared/visit-link';
import {
  checkHandoffSocket,
  handOff,
  handoffSocketPath,
  HandoffRefusedError,
  listenForHandoffs,
  newPipeName,
  pipeNameFile,
  readPipeName,
  removePipeName,
  writePipeName,
  type HandoffListener,
} from './instance-handoff';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const read = (url: string) => readVisitLink(url, '2026-11-24');

let dir: string;
const listeners: HandoffListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Listens on a new data directory; resolves with that directory. */
async function listen(onLink = read) {
  dir = await mkdtemp(join(tmpdir(), 'scribe-handoff-'));
  const listener = await listenForHandoffs(dir, onLink, quiet);
  if (listener === 'running') throw new Error('nothing should be running on a new directory');
  listeners.push(listener);
  return dir;
}

describe("browser mode's second launch", () => {
  it('hands its link to the instance running on the data directory, which answers what it made of it', async () => {
    const received: string[] = [];
    const data = await listen((url) => (received.push(url), read(url)));
    expect(await handOff(data, 'ambient-scribe://visit?encounter_id=A1')).toEqual({ ok: true });
    expect(await handOff(data, 'ambient-scribe://visit?sex=F')).toEqual({
      ok: false,
      problems: [
        { field: 'encounter_id', rule: 'is needed' },
        { field: 'sex', rule: 'must be one of MALE, FEMALE, OTHER, UNKNOWN' },
      ],
    });
    expect(received).toEqual(['ambient-scribe://visit?encounter_id=A1', 'ambient-scribe://visit?sex=F']);
  });

  it('finds no instance where none runs, and starts its own', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scribe-handoff-'));
    expect(await handOff(dir, 'ambient-scribe://visit?encounter_id=A1')).toBe('none');
    // Nor on a data directory that does not exist yet (the first launch ever).
    expect(await handOff(join(dir, 'none'), 'ambient-scribe://visit?encounter_id=A1')).toBe('none');
  });

  it('one instance per data directory: a second is told one runs; a socket left by a dead one is cleared', async () => {
    const data = await listen();
    expect(await listenForHandoffs(data, read, quiet)).toBe('running');
    await listeners.pop()!.close();
    // A crash leaves the socket file behind; the next start takes the place.
    await writeFile(handoffSocketPath(data), '');
    const again = await listenForHandoffs(data, read, quiet);
    expect(again).not.toBe('running');
    listeners.push(again as HandoffListener);
    expect(await handOff(data, 'ambient-scribe://visit?encounter_id=A1')).toEqual({ ok: true });
  });

  it("is reachable by this user only: the socket is 0600 in the app's 0700 directory", async () => {
    const data = await listen();
    expect((await stat(handoffSocketPath(data))).mode & 0o777).toBe(0o600);
  });

  it('answers anything but a link with what it expects, and drops a flood unread', async () => {
    const received: string[] = [];
    const data = await listen((url) => (received.push(url), read(url)));
    const ask = (payload: string) =>
      new Promise<string>((resolve) => {
        const socket = createConnection(handoffSocketPath(data));
        let reply = '';
        socket.setEncoding('utf8');
        socket.on('data', (text: string) => (reply += text));
        socket.on('close', () => resolve(reply));
        socket.on('error', () => undefined);
        socket.write(payload);
      });
    expect(JSON.parse(await ask('not json\n'))).toEqual({
      ok: false,
      problems: [{ field: 'request', rule: 'must be one line of JSON' }],
    });
    expect(JSON.parse(await ask('{"openUrl": 7}\n'))).toEqual({
      ok: false,
      problems: [{ field: 'openUrl', rule: 'must be the visit link' }],
    });
    expect(await ask('x'.repeat(10_000))).toBe('');
    expect(received).toEqual([]);
  });
});

// Unix sockets: skipped on Windows, which has pipes (below) and no socket owners.
describe.skipIf(process.platform === 'win32')(
  "a second launch hands its link only to this user's socket",
  () => {
    const LINK = 'ambient-scribe://visit?encounter_id=A1';

    it('is the socket of this user, in a directory of this user that no one else writes', async () => {
      const data = await listen();
      expect(await checkHandoffSocket(handoffSocketPath(data))).toBe('ours');
      // As if this process were another user: the socket and the directory are not theirs.
      const other = process.getuid!() + 1;
      expect(await checkHandoffSocket(handoffSocketPath(data), other)).toBe(
        `${handoffSocketPath(data)} belongs to another user (uid ${process.getuid!()}), not to you (uid ${other})`,
      );
      await chmod(data, 0o770);
      expect(await checkHandoffSocket(handoffSocketPath(data))).toMatch(
        /may be written by other users \(mode 770\)$/,
      );
    });

    it('refuses, with why, anything at the socket path that is not a socket', async () => {
      dir = await mkdtemp(join(tmpdir(), 'scribe-handoff-'));
      await writeFile(handoffSocketPath(dir), '');
      const refused = handOff(dir, LINK);
      await expect(refused).rejects.toBeInstanceOf(HandoffRefusedError);
      await expect(refused).rejects.toThrow(
        `The visit link was not handed over: ${handoffSocketPath(dir)} is not a socket (remove it if no Ambient Scribe runs on this data directory).`,
      );
    });

    it.skipIf(process.getuid?.() !== 0)(
      'refuses a socket chowned to another user, and never sends it the link (run as root)',
      async () => {
        const received: string[] = [];
        const data = await listen((url) => (received.push(url), read(url)));
        await chown(handoffSocketPath(data), 4242, 4242);
        const refused = handOff(data, LINK);
        await expect(refused).rejects.toThrow(
          /belongs to another user \(uid 4242\), not to you \(uid 0\)\.$/,
        );
        expect(received).toEqual([]);
        await chown(handoffSocketPath(data), 0, 0);
        await chown(data, 4242, 4242);
        await expect(handOff(data, LINK)).rejects.toThrow(
          /the data directory .* belongs to another user \(uid 4242\)/,
        );
        await chown(data, 0, 0);
        expect(await handOff(data, LINK)).toEqual({ ok: true });
      },
    );
  },
);

describe('Windows: a pipe named at random per running instance, its name in a file of the data directory', () => {
  it('names each instance a new local pipe nobody can guess', () => {
    const a = newPipeName();
    expect(a).toMatch(/^\\\\\.\\pipe\\ambient-scribe-browser-[0-9a-f]{32}$/);
    expect(newPipeName()).not.toBe(a);
  });

  it('writes the name where only this user reads it, and a second launch reads it back', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scribe-handoff-'));
    expect(await readPipeName(dir)).toBeUndefined();
    const name = newPipeName();
    await writePipeName(dir, name);
    expect(await readPipeName(dir)).toBe(name);
    expect(await readFile(pipeNameFile(dir), 'utf8')).toBe(`${name}\n`);
    if (process.platform !== 'win32') expect((await stat(pipeNameFile(dir))).mode & 0o777).toBe(0o600);
    // An instance that stops removes its name, not a newer instance's.
    await removePipeName(dir, newPipeName());
    expect(await readPipeName(dir)).toBe(name);
    await removePipeName(dir, name);
    expect(await readPipeName(dir)).toBeUndefined();
  });

  it('never connects to a pipe the app does not make: another computer, another name, junk', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scribe-handoff-'));
    for (const text of [
      '\\\\host\\pipe\\ambient-scribe-browser-0123456789abcdef0123456789abcdef',
      '\\\\.\\pipe\\ambient-scribe-browser-0123',
      '\\\\.\\pipe\\something-else',
      '/tmp/browser-mode.sock',
      'x'.repeat(10_000),
      '',
    ]) {
      await writeFile(pipeNameFile(dir), text);
      expect(await readPipeName(dir), text.slice(0, 60)).toBeUndefined();
      // A second launch (platform injected) then finds no instance, and starts its own.
      expect(await handOff(dir, 'ambient-scribe://visit?encounter_id=A1', 'win32')).toBe('none');
    }
  });

  it('a second launch with no pipe named finds no instance', async () => {
    dir = await mkdtemp(join(tmpdir(), 'scribe-handoff-'));
    expect(await handOff(dir, 'ambient-scribe://visit?encounter_id=A1', 'win32')).toBe('none');
  });
});
