import { isAbsolute, relative, resolve } from 'node:path';

/**
 * Maps a request path under the app's own scheme to a file of the built renderer, or undefined
 * when it would leave that directory (`..`, encoded slashes, absolute paths).
 */
export function resolveRendererFile(rendererDir: string, requestPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const wanted = decoded === '/' || decoded === '' ? '/index.html' : decoded;
  const root = resolve(rendererDir);
  const file = resolve(root, `.${wanted}`);
  const inside = relative(root, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  return file;
}
