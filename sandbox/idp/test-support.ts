import Fastify, { type FastifyInstance } from 'fastify';
import { mountIdp, type MountedIdp, type MountIdpOptions } from './mount';

/**
 * A sandbox-like Fastify server for the IdP tests: the IdP mounted at /idp between two ordinary
 * JSON routes, listening on a port the OS picks.
 */
export interface IdpTestServer {
  app: FastifyInstance;
  baseUrl: string;
  issuer: string;
  jwksUrl: string;
  idp: MountedIdp;
  close(): Promise<void>;
}

export async function startIdpTestServer(
  options: Omit<MountIdpOptions, 'issuer'> = {},
): Promise<IdpTestServer> {
  const app = Fastify();
  // Registered before and after the mount: neither may be affected by it.
  app.post('/before', async (request) => ({ received: request.body }));
  let baseUrl = '';
  // The port is known only once listening, so the issuer is given as a function.
  const idp = await mountIdp(app, { ...options, issuer: () => `${baseUrl}/idp` });
  app.post('/after', async (request) => ({ received: request.body }));
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    baseUrl,
    issuer: idp.issuer(),
    jwksUrl: idp.jwksUrl(),
    idp,
    close: () => app.close(),
  };
}
