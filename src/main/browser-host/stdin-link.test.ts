import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLinkLine } from './stdin-link';

const LINK = 'ambient-scribe://visit?encounter_id=A1&sex=FEMALE';

describe('--open-url -: the visit link from standard input', () => {
  it('reads the first line, without its line end (Unix or Windows), and stops reading', async () => {
    for (const eol of ['\n', '\r\n']) {
      const input = new PassThrough();
      const read = readLinkLine(input);
      input.write(LINK.slice(0, 10));
      input.write(`${LINK.slice(10)}${eol}ambient-scribe://visit?encounter_id=B2\n`);
      expect(await read).toBe(LINK);
      expect(input.destroyed).toBe(true);
    }
  });

  it('takes a last line without a line end (echo -n, a pipe that closes)', async () => {
    const input = new PassThrough();
    const read = readLinkLine(input);
    input.end(LINK);
    expect(await read).toBe(LINK);
  });

  it('says so when there is nothing, or more than a link could be, and never echoes what it read', async () => {
    const empty = new PassThrough();
    const none = readLinkLine(empty);
    empty.end('\n');
    await expect(none).rejects.toThrow('--open-url - found no visit link on standard input.');

    const flood = new PassThrough();
    const tooLong = readLinkLine(flood, 100);
    flood.write(`ambient-scribe://visit?encounter_id=${'A'.repeat(200)}`);
    await expect(tooLong).rejects.toThrow(/more than 100 characters without a line end/);
    await expect(tooLong).rejects.not.toThrow(/AAAA/);
  });
});
