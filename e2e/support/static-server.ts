/**
 * A static file server for a directory on 127.0.0.1 (any free port): http, so module scripts and
 * WebAssembly load as they do from the app's own host (file:// would not), and a secure context, as
 * getUserMedia and AudioWorklet need; with the MIME types the browser checks (`application/wasm`
 * lets WebAssembly compile while it downloads). bench/vad-chromium serves its built harness with it.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

export async function serveDirectory(dir: string): Promise<StaticServer> {
  const root = normalize(dir + sep);
  const server = createServer((request, response) => {
    const path = normalize(join(root, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)));
    const file = path.endsWith(sep) ? join(path, 'index.html') : path;
    if (!file.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) =>
        response
          .writeHead(200, { 'content-type': MIME_TYPES[extname(file)] ?? 'application/octet-stream' })
          .end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
