import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readVisitLink } from '../../shared/visit-link';
import { handOff, handoffAddress, listenForHandoffs, type HandoffListener } from './instance-handoff';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const read = (url: string) => readVisitLink(url, '2026-11-24');

let dir: string;
const listeners: HandoffListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function listen(onLink = read) {
  dir = await mkdtemp(join(tmpdir(), 'scribe-handoff-'));
  const address = handoffAddress(dir);
  const listener = await listenForHandoffs(address, onLink, quiet);
  if (listener === 'running') throw new Error('nothing should be running on a new directory');
  listeners.push(listener);
  return address;
}

describe("browser mode's second launch", () => {
  it('hands its link to the instance running on the data directory, which answers what it made of it', async () => {
    const received: string[] = [];
    const address = await listen((url) => (received.push(url), read(url)));
    expect(await handOff(address, 'ambient-scribe://visit?encounter_id=A1')).toEqual({ ok: true });
    expect(await handOff(address, 'ambient-scribe://visit?sex=F')).toEqual({
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
    expect(await handOff(handoffAddress(dir), 'ambient-scribe://visit?encounter_id=A1')).toBe('none');
  });

  it('one instance per data directory: a second is told one runs; a socket left by a dead one is cleared', async () => {
    const address = await listen();
    expect(await listenForHandoffs(address, read, quiet)).toBe('running');
    await listeners.pop()!.close();
    // A crash leaves the socket file behind; the next start takes the place.
    await writeFile(address, '');
    const again = await listenForHandoffs(address, read, quiet);
    expect(again).not.toBe('running');
    listeners.push(again as HandoffListener);
    expect(await handOff(address, 'ambient-scribe://visit?encounter_id=A1')).toEqual({ ok: true });
  });

  it("is reachable by this user only: the socket is 0600 in the app's 0700 directory", async () => {
    const address = await listen();
    expect((await stat(address)).mode & 0o777).toBe(0o600);
  });

  it('answers anything but a link with what it expects, and drops a flood unread', async () => {
    const received: string[] = [];
    const address = await listen((url) => (received.push(url), read(url)));
    const ask = (payload: string) =>
      new Promise<string>((resolve) => {
        const socket = createConnection(address);
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

  it('names a pipe per data directory on Windows', () => {
    const a = handoffAddress('C:\\Users\\jo\\AppData\\Roaming\\Ambient Scribe', 'win32');
    expect(a).toMatch(/^\\\\\.\\pipe\\ambient-scribe-browser-[0-9a-f]{24}$/);
    expect(handoffAddress('C:\\Users\\jo\\AppData\\Roaming\\ambient scribe', 'win32')).toBe(a);
    expect(handoffAddress('D:\\portable\\data', 'win32')).not.toBe(a);
  });
});
