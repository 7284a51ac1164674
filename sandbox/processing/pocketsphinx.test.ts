import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findLanguageModelDir } from './pocketsphinx';

/**
 * The packaged app's layout (electron-builder): the code in resources/app.asar, the language model
 * unpacked beside it. Plain folders stand in for both here; what matters is which path pocketsphinx,
 * a separate program that cannot read inside app.asar, is given.
 */
let resources: string;
const chunkDir = () => join(resources, 'app.asar', 'out', 'main', 'chunks');

function writeModel(root: string): string {
  const dir = join(root, 'sandbox', 'processing', 'language-model');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'clinical.lm'), '\\data\\\n');
  writeFileSync(join(dir, 'clinical.dict'), 'visit V IH Z IH T\n');
  return dir;
}

beforeEach(() => {
  resources = mkdtempSync(join(tmpdir(), 'packaged-resources-'));
});
afterEach(() => rmSync(resources, { recursive: true, force: true }));

describe('the language model in a packaged app', () => {
  it('is found in app.asar.unpacked, from the sandbox code inside app.asar', () => {
    const unpacked = writeModel(join(resources, 'app.asar.unpacked'));
    expect(findLanguageModelDir(chunkDir(), resources)).toBe(unpacked);
  });

  it('is not used from inside app.asar, where pocketsphinx could not open it', () => {
    writeModel(join(resources, 'app.asar'));
    expect(findLanguageModelDir(chunkDir(), resources)).toBeUndefined();
  });
});
