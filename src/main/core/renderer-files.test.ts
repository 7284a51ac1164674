import { describe, expect, it } from 'vitest';
import { resolveRendererFile } from './renderer-files';

describe('files under app://scribe', () => {
  const root = '/opt/scribe/out/renderer';
  it('serves index.html for the root and files inside the renderer directory', () => {
    expect(resolveRendererFile(root, '/')).toBe(`${root}/index.html`);
    expect(resolveRendererFile(root, '/assets/index-abc.js')).toBe(`${root}/assets/index-abc.js`);
  });
  it.each([
    '/../main/index.js',
    '/assets/../../preload/index.cjs',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/..%2f..%2fetc/passwd',
    '/a%00.js',
    '/..\\..\\x',
    '/%E0%A4%A',
  ])('refuses %s', (path) => {
    expect(resolveRendererFile(root, path)).toBeUndefined();
  });
});
