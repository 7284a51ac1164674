import { describe, expect, it } from 'vitest';
import { MAX_VISIT_LINK_LENGTH } from '../../../shared/visit-link';
import { linkFromSecondInstance, readLaunchArgs, remotePolicyPath, secondInstanceData } from './launch-args';

const LINK = 'ambient-scribe://visit?encounter_id=A1&sex=FEMALE';
const WIN = 'C:\\Program Files\\Ambient Scribe\\Ambient Scribe.exe';
const LINUX = '/opt/Ambient Scribe/ambient-scribe';

/** No problem may quote what it refused: links carry patient details. */
function expectNoValues(problems: readonly string[], ...values: string[]) {
  for (const problem of problems) for (const value of values) expect(problem).not.toContain(value);
}

describe('a launch from the registered command ("…" -- "%1", Exec=… -- %u)', () => {
  it('takes the one argument after -- as the link, the scheme in any case', () => {
    expect(readLaunchArgs([WIN, '--', LINK])).toEqual({ link: LINK, problems: [] });
    expect(readLaunchArgs([LINUX, '--', 'AMBIENT-SCRIBE://visit?encounter_id=A1'])).toEqual({
      link: 'AMBIENT-SCRIBE://visit?encounter_id=A1',
      problems: [],
    });
  });

  it('is a plain launch when nothing follows -- (the menu entry, Exec=… -- %u without a link)', () => {
    expect(readLaunchArgs([LINUX, '--'])).toEqual({ problems: [] });
  });

  it('reads no switch after --: a link whose text holds --policy stays one link, and no policy is taken', () => {
    const quoted = `${LINK}" --policy=x "`;
    const read = readLaunchArgs([WIN, '--', quoted]);
    expect(read).toEqual({ link: quoted, problems: [] });
    expect(read.policy).toBeUndefined();
  });

  it('the quote-injection shape: a link split into two arguments gives no link and no policy', () => {
    const read = readLaunchArgs([
      'app.exe',
      '--',
      'ambient-scribe://visit?encounter_id=A1',
      '--policy=\\\\host\\share\\p.json',
    ]);
    expect(read.link).toBeUndefined();
    expect(read.policy).toBeUndefined();
    expect(read.problems).toEqual([expect.stringContaining('2 arguments came after "--"')]);
    expectNoValues(read.problems, 'A1', 'host', 'p.json');
  });

  it('with a local policy path injected after --, still neither: the first -- decides', () => {
    for (const argv of [
      [WIN, '--', LINK, '--policy', '/tmp/p.json'],
      [WIN, '--', LINK, '--', '--policy=/tmp/p.json'],
      [WIN, '--', `${LINK}`, '--', 'ambient-scribe://visit?encounter_id=B2'],
    ]) {
      const read = readLaunchArgs(argv);
      expect(read.link, argv.join(' ')).toBeUndefined();
      expect(read.policy, argv.join(' ')).toBeUndefined();
    }
  });

  it('a non-link after -- is not read, and the problem does not quote it', () => {
    const read = readLaunchArgs([WIN, '--', 'https://example.org/?encounter_id=A1']);
    expect(read).toEqual({ problems: [expect.stringContaining('is not an ambient-scribe: link')] });
    expectNoValues(read.problems, 'example.org', 'A1');
  });

  it("keeps Chromium's and Electron's own switches before --, and reads --policy among them", () => {
    expect(
      readLaunchArgs([
        WIN,
        '--allow-file-access-from-files',
        '--original-process-start-time=13380000000000000',
        '--policy',
        'C:\\ProgramData\\Clinic\\policy.json',
        '--',
        LINK,
      ]),
    ).toEqual({ policy: 'C:\\ProgramData\\Clinic\\policy.json', link: LINK, problems: [] });
    // A developer's `electron . --policy=/p.json -- LINK`.
    expect(readLaunchArgs(['electron', '.', '--inspect=0', '--policy=/p.json', '--', LINK])).toEqual({
      policy: '/p.json',
      link: LINK,
      problems: [],
    });
  });

  it('a link before -- is not read: the link is what follows --', () => {
    const read = readLaunchArgs([WIN, LINK, '--']);
    expect(read.link).toBeUndefined();
    expect(read.problems).toEqual([expect.stringContaining('before "--" was not read')]);
  });

  it('a link longer than a visit link may be is not read', () => {
    const long = `ambient-scribe://visit?encounter_id=${'A'.repeat(MAX_VISIT_LINK_LENGTH)}`;
    const read = readLaunchArgs([WIN, '--', long]);
    expect(read.link).toBeUndefined();
    expect(read.problems).toEqual([expect.stringContaining(`longer than ${MAX_VISIT_LINK_LENGTH}`)]);
  });
});

describe('a launch without -- (macOS, a developer, a test)', () => {
  it('finds the link wherever it is, as an argument with the scheme', () => {
    expect(readLaunchArgs([LINUX, LINK])).toEqual({ link: LINK, problems: [] });
    expect(readLaunchArgs(['electron', '.', '--inspect=0', LINK])).toEqual({ link: LINK, problems: [] });
  });

  it('an ordinary launch has no link, and another scheme is not one', () => {
    expect(readLaunchArgs([LINUX])).toEqual({ problems: [] });
    expect(readLaunchArgs(['app', 'https://example.org/?ambient-scribe://visit'])).toEqual({ problems: [] });
    expect(readLaunchArgs(['app', '--policy', '/etc/ambient-scribe/policy.json'])).toEqual({
      policy: '/etc/ambient-scribe/policy.json',
      problems: [],
    });
  });

  it('reads no switch after the link (a launcher may have split it there)', () => {
    const read = readLaunchArgs([LINUX, LINK, '--policy=/tmp/p.json']);
    expect(read.link).toBe(LINK);
    expect(read.policy).toBeUndefined();
    expect(read.problems).toEqual(['switches after a visit link were not read']);
  });

  it('two links give none', () => {
    const read = readLaunchArgs([LINUX, LINK, 'ambient-scribe://visit?encounter_id=B2']);
    expect(read.link).toBeUndefined();
    expect(read.problems).toEqual(['2 visit links were given: none was read']);
  });
});

describe('--policy on the command line', () => {
  it('takes --policy FILE and --policy=FILE', () => {
    expect(readLaunchArgs(['electron', '.', '--policy', '/p.json']).policy).toBe('/p.json');
    expect(readLaunchArgs(['app', '--policy=/q.json']).policy).toBe('/q.json');
    expect(readLaunchArgs(['app', '--policy=C:\\ProgramData\\p.json']).policy).toBe(
      'C:\\ProgramData\\p.json',
    );
  });

  it('refuses a UNC path or a URL: a policy comes from this computer', () => {
    for (const path of [
      '\\\\host\\share\\p.json',
      '//host/share/p.json',
      '\\/host/share/p.json',
      '\\\\?\\UNC\\host\\share\\p.json',
      '\\\\.\\pipe\\p',
      '\\??\\UNC\\host\\share\\p.json',
      'file://host/share/p.json',
      'https://example.org/p.json',
      'smb://host/share/p.json',
    ]) {
      const read = readLaunchArgs(['app', `--policy=${path}`]);
      expect(read.policy, path).toBeUndefined();
      expect(read.problems, path).toEqual([
        expect.stringMatching(/^--policy must be a file on this computer/),
      ]);
      expectNoValues(read.problems, 'host', 'example.org');
      expect(readLaunchArgs(['app', '--policy', path]).policy, path).toBeUndefined();
    }
    expect(remotePolicyPath('C:\\ProgramData\\p.json')).toBeUndefined();
    expect(remotePolicyPath('/etc/ambient-scribe/policy.json')).toBeUndefined();
    expect(remotePolicyPath('policy.json')).toBeUndefined();
  });

  it('without a file, or given twice, takes none', () => {
    expect(readLaunchArgs(['app', '--policy'])).toEqual({
      problems: [expect.stringContaining('--policy needs a file')],
    });
    expect(readLaunchArgs(['app', '--policy', '--', LINK])).toEqual({
      link: LINK,
      problems: [expect.stringContaining('--policy needs a file')],
    });
    expect(readLaunchArgs(['app', '--policy=', '--inspect'])).toEqual({
      problems: [expect.stringContaining('--policy needs a file')],
    });
    expect(readLaunchArgs(['app', '--policy=/a.json', '--policy', '/b.json'])).toEqual({
      problems: [expect.stringContaining('more than once')],
    });
  });
});

describe("a second launch's link, handed over with the single-instance lock", () => {
  it('is sent as { link } alone, and read back from that', () => {
    const data = secondInstanceData(readLaunchArgs([WIN, '--', LINK]));
    expect(data).toEqual({ link: LINK });
    expect(linkFromSecondInstance(structuredClone(data))).toEqual({ kind: 'link', link: LINK });
  });

  it('a plain second launch sends nothing, and is one (so is an older build, or another user)', () => {
    expect(secondInstanceData(readLaunchArgs([WIN]))).toEqual({});
    expect(secondInstanceData(readLaunchArgs([LINUX, '--']))).toEqual({});
    for (const data of [{}, undefined, null]) expect(linkFromSecondInstance(data)).toEqual({ kind: 'plain' });
  });

  it('a second launch whose link was refused says so, without the link', () => {
    const data = secondInstanceData(
      readLaunchArgs(['app.exe', '--', LINK, '--policy=\\\\host\\share\\p.json']),
    );
    expect(data).toEqual({ refused: true });
    expect(linkFromSecondInstance(data)).toEqual({
      kind: 'refused',
      problem: 'a second launch refused its own command line (its log line says why)',
    });
  });

  it('anything else is refused, and gives no link', () => {
    class Link {
      link = LINK;
    }
    for (const data of [
      'ambient-scribe://visit?encounter_id=A1',
      [LINK],
      7,
      new Link(),
      { link: 7 },
      { link: 'https://example.org/' },
      { link: LINK, policy: '/p.json' },
      { link: LINK, refused: true },
      { refused: 'yes' },
      { argv: ['--', LINK] },
      { link: `ambient-scribe://visit?encounter_id=${'A'.repeat(MAX_VISIT_LINK_LENGTH)}` },
    ]) {
      expect(linkFromSecondInstance(data)).toEqual({
        kind: 'refused',
        problem: 'a second launch sent data that is not a visit link; it was ignored',
      });
    }
    expect(linkFromSecondInstance(Object.assign(Object.create(null), { link: LINK }))).toEqual({
      kind: 'link',
      link: LINK,
    });
  });
});
