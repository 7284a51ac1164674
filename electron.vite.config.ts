import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { devRendererCsp, RENDERER_CSP } from './src/shared/csp';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

/**
 * The CSP of `npm run dev`: the React Refresh preamble (an inline script plugin-react adds to
 * index.html, base '/') admitted by its hash, so a new plugin version cannot slip in another.
 */
export const DEV_RENDERER_CSP = devRendererCsp([
  createHash('sha256').update(react.preambleCode.replace('__BASE__', '/')).digest('base64'),
]);

/** Writes the one CSP (src/shared/csp.ts) into index.html; the dev server's is DEV_RENDERER_CSP. */
function injectCsp(): Plugin {
  return {
    name: 'inject-renderer-csp',
    transformIndexHtml: {
      order: 'pre',
      handler: (html, context) =>
        html.replace('%RENDERER_CSP%', context.server ? DEV_RENDERER_CSP : RENDERER_CSP),
    },
  };
}

export default defineConfig({
  main: {
    define: { __APP_VERSION__: JSON.stringify(version) },
    build: {
      rollupOptions: {
        input: {
          // The Electron shell.
          index: resolve('src/main/index.ts'),
          // Browser mode: the same core in plain Node (npm run start:browser).
          browser: resolve('src/main/browser-host/main.ts'),
          // The documentation-service emulator (npm run sandbox).
          sandbox: resolve('sandbox/main.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // A sandboxed preload must be one CommonJS file.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    plugins: [react(), injectCsp()],
    // The voice-detection worker (audio/vad/speech-worker.ts) is a module worker: onnxruntime-web's
    // bundle splits into chunks, which a classic (iife) worker cannot load.
    worker: { format: 'es' },
    build: {
      minify: true,
      // Class static blocks (React Aria's) are lowered: electronegativity's parser cannot read
      // them, and a renderer bundle it cannot scan fails the security check.
      target: 'es2021',
      // One local bundle, read from disk: React 19 with React Aria (~630 kB minified, 173 kB of it
      // React Aria) parses in a few ms and is never downloaded, so the web's 500 kB warning does not apply.
      chunkSizeWarningLimit: 800,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
