import { net, protocol } from 'electron';
import { pathToFileURL } from 'node:url';
import { RENDERER_CSP } from '../shared/csp';
import { resolveRendererFile } from './core/renderer-files';

/**
 * Electron security checklist, "Use a custom protocol instead of file://": the renderer is served
 * from app://scribe, a secure standard origin that can load its bundled wasm and model under the
 * CSP, and that nothing else on disk is reachable from.
 */
export const APP_ORIGIN = 'app://scribe';

/** Must run before the app is ready. */
export function registerAppSchemePrivileges(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } },
  ]);
}

export function serveRendererFromAppScheme(rendererDir: string): void {
  protocol.handle('app', async (request) => {
    const url = new URL(request.url);
    const file = url.host === 'scribe' ? resolveRendererFile(rendererDir, url.pathname) : undefined;
    if (!file) return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', RENDERER_CSP);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(response.body, { status: response.status, headers });
  });
}
