/**
 * The reference for start-up: Node's http + fs serving a directory, in its own process (plain
 * JavaScript given to `node -e`, so no TypeScript loader slows its start), printing its address
 * when it listens, as browser mode prints SCRIBE_URL.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { MIME_TYPES } from '../browser-app/static-server';

const SERVER = `
const http = require('node:http'), fs = require('node:fs'), path = require('node:path');
const root = path.resolve(process.argv[1]) + path.sep;
const types = JSON.parse(process.argv[2]);
http.createServer((request, response) => {
  const file = path.join(root, decodeURIComponent(new URL(request.url, 'http://x').pathname));
  const target = file.endsWith(path.sep) ? path.join(file, 'index.html') : file;
  if (!target.startsWith(root)) return response.writeHead(403).end();
  fs.readFile(target, (error, body) => {
    if (error) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': types[path.extname(target)] || 'application/octet-stream' }).end(body);
  });
}).listen(0, '127.0.0.1', function () {
  console.log('STATIC_URL=http://127.0.0.1:' + this.address().port + '/');
});
`;

export interface StaticProcess {
  url: string;
  stop(): Promise<void>;
}

export async function startStaticProcess(dir: string): Promise<StaticProcess> {
  const child = spawn(process.execPath, ['-e', SERVER, dir, JSON.stringify(MIME_TYPES)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the static server did not start within 10 s')), 10_000);
    lines.on('line', (line) => {
      if (!line.startsWith('STATIC_URL=')) return;
      clearTimeout(timer);
      resolve(line.slice('STATIC_URL='.length));
    });
    child.once('exit', (code) => reject(new Error(`the static server exited with ${code}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
