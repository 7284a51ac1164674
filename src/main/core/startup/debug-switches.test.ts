import { describe, expect, it } from 'vitest';
import { debugSwitchRefusal, refusedDebugSwitch } from './debug-switches';

const WIN = 'C:\\Program Files\\Ambient Scribe\\Ambient Scribe.exe';
const LINUX = '/opt/Ambient Scribe/ambient-scribe';
const LINK = 'ambient-scribe://visit?encounter_id=A1';

describe('the debugging switches a packaged app refuses (issue 39, item 7)', () => {
  it('names each switch the issue lists, with or without a value', () => {
    expect(refusedDebugSwitch([LINUX, '--remote-debugging-port=9222'], 'linux')).toBe(
      '--remote-debugging-port',
    );
    expect(refusedDebugSwitch([LINUX, '--remote-debugging-port', '9222'], 'linux')).toBe(
      '--remote-debugging-port',
    );
    expect(refusedDebugSwitch([LINUX, '--remote-debugging-pipe'], 'linux')).toBe('--remote-debugging-pipe');
    expect(refusedDebugSwitch([LINUX, '--inspect'], 'linux')).toBe('--inspect');
    expect(refusedDebugSwitch([LINUX, '--inspect-brk=0'], 'linux')).toBe('--inspect-brk');
    expect(refusedDebugSwitch([LINUX, '--inspect-port=9229'], 'linux')).toBe('--inspect-port');
    expect(refusedDebugSwitch([LINUX, '--js-flags=--allow-natives-syntax'], 'linux')).toBe('--js-flags');
    expect(refusedDebugSwitch([LINUX, '--enable-logging=stderr'], 'linux')).toBe('--enable-logging');
    expect(refusedDebugSwitch([LINUX, '--enable-logging'], 'linux')).toBe('--enable-logging');
  });

  it('reads switches as Chromium does: one dash, any case, anywhere before --', () => {
    expect(refusedDebugSwitch([LINUX, '-remote-debugging-port=9222'], 'linux')).toBe(
      '-remote-debugging-port',
    );
    expect(refusedDebugSwitch([LINUX, '--Remote-Debugging-Port=9222'], 'linux')).toBe(
      '--Remote-Debugging-Port',
    );
    expect(refusedDebugSwitch([LINUX, '--policy=/etc/p.json', '--remote-debugging-pipe'], 'linux')).toBe(
      '--remote-debugging-pipe',
    );
    // A switch after a link (where launch-args reads none) still reaches Chromium without `--`.
    expect(refusedDebugSwitch([LINUX, LINK, '--remote-debugging-port=1'], 'linux')).toBe(
      '--remote-debugging-port',
    );
    // Another remote-debugging switch would only matter beside the port, and is refused as well.
    expect(refusedDebugSwitch([LINUX, '--remote-debugging-address=0.0.0.0'], 'linux')).toBe(
      '--remote-debugging-address',
    );
  });

  it('takes a slash as a switch on Windows only', () => {
    expect(refusedDebugSwitch([WIN, '/remote-debugging-port=9222'], 'win32')).toBe('/remote-debugging-port');
    expect(refusedDebugSwitch([WIN, '/REMOTE-DEBUGGING-PIPE'], 'win32')).toBe('/REMOTE-DEBUGGING-PIPE');
    // On Linux and macOS that is a path, not a switch.
    expect(refusedDebugSwitch([LINUX, '/remote-debugging-port=9222'], 'linux')).toBeUndefined();
  });

  it('refuses nothing after --, where Chromium reads no switch (the link the installer passes)', () => {
    expect(refusedDebugSwitch([WIN, '--', `${LINK}&x=--remote-debugging-port=1`], 'win32')).toBeUndefined();
    expect(refusedDebugSwitch([WIN, '--', '--remote-debugging-port=1'], 'win32')).toBeUndefined();
    expect(refusedDebugSwitch([WIN, '--remote-debugging-port=1', '--', LINK], 'win32')).toBe(
      '--remote-debugging-port',
    );
  });

  it('lets an ordinary launch through: the policy switch, a link, Electron folder, nothing at all', () => {
    expect(refusedDebugSwitch([LINUX], 'linux')).toBeUndefined();
    expect(refusedDebugSwitch([LINUX, '--policy=/etc/scribe.json', '--', LINK], 'linux')).toBeUndefined();
    expect(refusedDebugSwitch(['electron', '.', '--no-sandbox-is-not-ours'], 'linux')).toBeUndefined();
    expect(refusedDebugSwitch([WIN, '--enable-features=X', '--logging-level=0'], 'win32')).toBeUndefined();
    // The executable's own path is never read as a switch.
    expect(refusedDebugSwitch(['--inspect'], 'linux')).toBeUndefined();
  });

  it('says in one line which switch, and what to do', () => {
    const line = debugSwitchRefusal('--remote-debugging-port');
    expect(line).toContain('--remote-debugging-port');
    expect(line).toMatch(/: start it without that switch\.$/);
    // One sentence: a single full stop, at the end.
    expect(line.match(/\.(\s|$)/g)).toHaveLength(1);
    expect(line).not.toContain('\n');
  });
});
