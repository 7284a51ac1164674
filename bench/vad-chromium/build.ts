/**
 * Builds the VAD harness page with Vite the way the app's renderer is built (the model and the ORT
 * .wasm through the same `?url` imports in load-silero.ts), into a directory served over http.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = fileURLToPath(new URL('./harness', import.meta.url));

export async function buildHarness(outDir: string, cacheDir: string): Promise<void> {
  await build({
    root: ROOT,
    configFile: false,
    envDir: false,
    publicDir: false,
    cacheDir,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, minify: true, reportCompressedSize: false },
  });
}
