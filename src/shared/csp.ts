/**
 * The renderer's Content-Security-Policy, in one place: injected into index.html at build time
 * and sent as a header by the browser-mode host. Nothing remote; 'wasm-unsafe-eval' only so the
 * VAD's bundled WebAssembly can compile (Electron security checklist, "Define a CSP").
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * `npm run dev` only, never a build: what Vite's dev server and @vitejs/plugin-react's hot reload
 * need on top of RENDERER_CSP. The React Refresh preamble is an inline module script, admitted by
 * its hash (`scriptHashes`, base64 SHA-256); Vite injects CSS as <style> elements; its HMR socket
 * is on loopback (Electron's dev window loads http://localhost:5173).
 */
export function devRendererCsp(scriptHashes: readonly string[]): string {
  return RENDERER_CSP.replace(
    "script-src 'self'",
    `script-src 'self' ${scriptHashes.map((hash) => `'sha256-${hash}'`).join(' ')}`,
  )
    .replace("connect-src 'self'", "connect-src 'self' ws://127.0.0.1:* ws://localhost:* http://localhost:*")
    .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");
}
