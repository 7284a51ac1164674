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
