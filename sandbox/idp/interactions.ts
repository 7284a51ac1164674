import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, type Interaction, type Provider } from 'oidc-provider';
import { parseLoginInput, type DevAccounts } from './accounts';
import { IDP_PATH } from './constants';
import { PAGE_CSP, renderErrorPage, renderLoginPage } from './login-page';

/**
 * The interaction routes oidc-provider redirects the browser to when it needs a login or consent:
 * GET shows the dev login form (or grants consent and moves on), POST takes the form. Registered in
 * their own encapsulated context so the urlencoded parser below exists only here.
 */

export interface InteractionOptions {
  provider: () => Provider;
  accounts: DevAccounts;
  clientId: string;
}

type UidRoute = { Params: { uid: string } };
type LoginRoute = UidRoute & { Body: Record<string, string> };

const FORM_BODY_LIMIT = 8 * 1024;

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CSP)
    .send(html);
}

function loginAction(uid: string): string {
  return `${IDP_PATH}/interaction/${encodeURIComponent(uid)}/login`;
}

/**
 * The path's uid must name the interaction whose cookie the browser holds; a stale tab of an
 * earlier sign-in would otherwise act on the current one.
 */
async function currentInteraction(
  provider: Provider,
  request: FastifyRequest<UidRoute>,
  reply: FastifyReply,
) {
  const interaction = await provider.interactionDetails(request.raw, reply.raw);
  if (interaction.uid !== request.params.uid) {
    throw new errors.SessionNotFound('interaction in the URL is not the current one');
  }
  return interaction;
}

/**
 * Consent is granted automatically (the sandbox plays a partner IdP whose users always approve
 * their own desktop app): everything the authorization request asked for goes into the grant.
 */
async function grantEverything(provider: Provider, interaction: Interaction): Promise<{ grantId?: string }> {
  const accountId = interaction.session?.accountId;
  if (!accountId) throw new errors.SessionNotFound('consent without a signed-in account');
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const grant = existing ?? new provider.Grant({ accountId, clientId: String(interaction.params.client_id) });

  const details = interaction.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(' '));
  }
  const grantId = await grant.save();
  // An existing grant is updated in place; only a new one has to be handed back.
  return existing ? {} : { grantId };
}

export async function interactionRoutes(app: FastifyInstance, options: InteractionOptions): Promise<void> {
  const { provider, accounts, clientId } = options;

  // Only the login form posts here; anything else gets Fastify's 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof errors.SessionNotFound) {
      return sendPage(
        reply,
        400,
        renderErrorPage(
          'Sign-in expired',
          'This sign-in page has expired or was already used. Go back to Ambient Scribe and start signing in again.',
        ),
      );
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'idp interaction failed');
    // 4xx here are Fastify's own (415, 413): their messages are safe to show.
    const message =
      status < 500 && error instanceof Error
        ? error.message
        : 'The sandbox identity provider failed. Try again.';
    return sendPage(reply, status, renderErrorPage('Sign-in failed', message));
  });

  app.get<UidRoute>('/interaction/:uid', async (request, reply) => {
    const interaction = await currentInteraction(provider(), request, reply);
    switch (interaction.prompt.name) {
      case 'login': {
        const hint = interaction.params.login_hint;
        return sendPage(
          reply,
          200,
          renderLoginPage({
            action: loginAction(interaction.uid),
            clientId,
            ...(typeof hint === 'string' ? { username: hint } : {}),
          }),
        );
      }
      case 'consent': {
        const consent = await grantEverything(provider(), interaction);
        const returnTo = await provider().interactionResult(request.raw, reply.raw, { consent });
        return reply.redirect(returnTo, 303);
      }
      default:
        return sendPage(
          reply,
          501,
          renderErrorPage('Sign-in failed', `Unsupported sign-in step: ${interaction.prompt.name}.`),
        );
    }
  });

  app.post<LoginRoute>('/interaction/:uid/login', async (request, reply) => {
    const interaction = await currentInteraction(provider(), request, reply);
    if (interaction.prompt.name !== 'login') {
      throw new errors.SessionNotFound('login posted to an interaction that is not a login');
    }
    const body = request.body ?? {};
    const input = parseLoginInput(body.username, body.name);
    if (!input.ok) {
      const page = renderLoginPage({
        action: loginAction(interaction.uid),
        clientId,
        username: body.username ?? '',
        name: body.name ?? '',
        problem: input.problem,
      });
      return sendPage(reply, 400, page);
    }
    accounts.remember(input.username, input.name);
    const returnTo = await provider().interactionResult(
      request.raw,
      reply.raw,
      { login: { accountId: input.username } },
      { mergeWithLastSubmission: false },
    );
    // 303 so the browser follows with a GET to oidc-provider's resume endpoint.
    return reply.redirect(returnTo, 303);
  });
}
