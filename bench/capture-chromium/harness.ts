/**
 * The harness page, built by Vite the way the app's renderer is (so the worklet goes through the
 * same `?worker&url` bundling), and served over http on 127.0.0.1: a secure context, as
 * getUserMedia and AudioWorklet need, from which (unlike file://) module scripts may load.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = fileURLToPath(new URL('./harness', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

export interface BuiltWorklet {
  /** The worklet's file in the build. */
  fileName: string;
  /** How Vite bundled it: a classic script (IIFE, Vite's default for workers) or an ES module. */
  format: 'IIFE' | 'ES module';
}

/** Builds the page into `outDir`; reports how the worklet was bundled. */
export async function buildHarness(outDir: string, cacheDir: string): Promise<BuiltWorklet> {
  const output = await build({
    root: ROOT,
    configFile: false,
    envDir: false,
    publicDir: false,
    cacheDir,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, minify: true, reportCompressedSize: false },
  });
  const outputs = Array.isArray(output) ? output : [output];
  for (const result of outputs) {
    if (!('output' in result)) continue;
    const worklet = result.output.find((file) => file.fileName.includes('capture-processor'));
    if (!worklet) continue;
    const code = worklet.type === 'asset' ? String(worklet.source) : worklet.code;
    return { fileName: worklet.fileName, format: /^\s*\(function/.test(code) ? 'IIFE' : 'ES module' };
  }
  throw new Error('the Vite build emitted no capture-processor chunk for the worklet');
}

export interface Server {
  url: string;
  close(): Promise<void>;
}

/** A static server for `dir` on 127.0.0.1 (any free port). */
export async function serve(dir: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = normalize(join(dir, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)));
    const file = path.endsWith(sep) ? join(path, 'index.html') : path;
    if (!file.startsWith(dir)) {
      response.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) =>
        response
          .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
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
