import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { RENDERER_CSP } from './src/shared/csp';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

/** Writes the one CSP (src/shared/csp.ts) into index.html; dev mode also allows Vite's HMR socket. */
function injectCsp(): Plugin {
  return {
    name: 'inject-renderer-csp',
    transformIndexHtml: {
      order: 'pre',
      handler(html, context) {
        const csp = context.server
          ? RENDERER_CSP.replace(
              "connect-src 'self'",
              "connect-src 'self' ws://localhost:* http://localhost:*",
            ).replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
          : RENDERER_CSP;
        return html.replace('%RENDERER_CSP%', csp);
      },
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
    build: {
      minify: true,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
