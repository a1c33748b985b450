import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loggableError } from '../http/problem';
import { countSignInStep } from '../metrics/registry';
import { bareError, type FlowResult } from './flow/engine';
import type { RequestInfo } from './flow/types';
import { flowErrors, malformedRequest } from './flow/errors';
import { sessionCookie } from './flows/shared';
import { allowedOrigins, registerCors } from './cors';
import type { AuthProvider } from './provider';
import { readCookie, registerRestRoutes, sessionToken } from './rest';
import { profileData } from './users';

/** A sign-in that succeeded, or a step refused with its flow error code, for /metrics. */
function countFlowStep(flow: string, body: unknown) {
  const state = body as { name?: unknown; error?: { code?: unknown } } | null;
  if (state?.name === 'success') countSignInStep(flow, 'success');
  else if (typeof state?.error?.code === 'string') countSignInStep(flow, state.error.code);
}

const unauthorized = (reply: FastifyReply) =>
  reply.code(401).send({ code: 401, message: 'Unauthorized' });

/**
 * The provider's HTTP surface (openapi/auth.yaml): flows, JWKS, session checks, /me and
 * logout. Registered under /auth by server/app.ts, or alone by server/auth-provider/main.ts.
 */
export async function authProviderPlugin(app: FastifyInstance, opts: { provider: AuthProvider }) {
  const { provider } = opts;
  const { auth, sessions, engine } = provider;
  provider.setErrorLogger((error) => {
    // An unreachable database: one line per outage (server/http/outage-log.ts).
    if (app.databaseOutage?.connectionFailure(error, { context: 'auth flow' })) return;
    app.log.error({ error: loggableError(error) }, 'auth flow failed');
  });
  // The key refresh timer ends with the app (before its database closes).
  app.addHook('onClose', async () => provider.keys.stop());
  registerCors(app, {
    origins: allowedOrigins(auth, provider.publicUrl),
    exposeAuthToken: auth.AUTH_SESSION_TOKEN_HEADER,
  });

  // The SDK starts a flow with `Content-Type: application/json` and an empty body; bad JSON
  // answers the flow's own 400 (bare error) instead of a problem document.
  const INVALID_JSON = Symbol('invalid json');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(null, INVALID_JSON);
    }
  });

  for (const flowName of ['login', 'registration', 'profile', 'token_exchange'] as const) {
    app.post(`/${flowName}`, async (request, reply) => {
      const { action } = request.query as { action?: unknown };
      const info: RequestInfo = {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        language:
          typeof request.headers['x-language'] === 'string'
            ? request.headers['x-language']
            : undefined,
      };
      const deviceCookie = readCookie(request, auth.AUTH_DEVICE_TRUST_COOKIE);
      if (deviceCookie) info.deviceCookie = deviceCookie;
      // The profile flow needs a valid session on every request (protocol §1.1, §3.4).
      let refused: FlowResult | null = null;
      // Hanko: `forbidden` (403) when SAML is not configured.
      if (flowName === 'token_exchange' && !provider.saml.enabled) {
        refused = bareError({ status: 403, code: 'forbidden', message: 'SAML is not enabled.' });
      }
      if (flowName === 'profile') {
        const token = sessionToken(request, auth.AUTH_COOKIE_NAME);
        const session = token ? await sessions.verify(token) : null;
        if (session) {
          await sessions.touch(session.sessionId);
          info.session = { sessionId: session.sessionId, userId: session.userId };
        } else refused = bareError(flowErrors.unauthorized);
      }
      const result =
        refused ??
        (action === undefined
          ? await engine.start(flowName, info)
          : typeof action !== 'string'
            ? bareError(malformedRequest('action'))
            : request.body === INVALID_JSON
              ? bareError(malformedRequest('body'))
              : await engine.run(flowName, action, request.body, info));
      if (flowName === 'login' || flowName === 'registration') countFlowStep(flowName, result.body);
      return reply
        .code(result.status)
        .headers({ ...result.headers, 'cache-control': 'no-store' })
        .send(result.body);
    });
  }

  registerRestRoutes(app, provider);

  // The provider sends the browser back here (GET, or POST with response_mode=form_post);
  // it goes on to `redirect_to` with ?hanko_token=… or ?error=… (protocol §1.1, §3.6).
  const thirdpartyCallback = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = {
      ...(request.query as Record<string, unknown>),
      ...(request.body && typeof request.body === 'object'
        ? (request.body as Record<string, unknown>)
        : {}),
    };
    const { location, cookie } = await provider.thirdparty.callback(
      params,
      readCookie(request, provider.thirdparty.cookieName),
      (error) => app.log.warn({ error: loggableError(error) }, 'third-party sign-in failed'),
    );
    return reply
      .code(303)
      .header('cache-control', 'no-store')
      .header('set-cookie', cookie)
      .redirect(location, 303);
  };
  app.get('/thirdparty/callback', thirdpartyCallback);
  app.register(async (scope) => {
    // form_post callbacks: application/x-www-form-urlencoded, parsed with URLSearchParams.
    formPostParser(scope);
    scope.post('/thirdparty/callback', thirdpartyCallback);
  });

  // SAML (protocol §1.1): provider look-up by domain, the redirect to the IdP, its POST back.
  app.get('/saml/provider', async (request, reply) => {
    const { domain } = request.query as { domain?: unknown };
    if (typeof domain !== 'string' || domain === '' || domain.length > 253) {
      return reply.code(400).send({ code: 400, message: 'domain: value_invalid_error' });
    }
    const found = provider.saml.provider(domain);
    if (!found) return reply.code(404).send({ code: 404, message: 'Not Found' });
    return reply.header('cache-control', 'no-store').send({ domain: domain.trim().toLowerCase() });
  });
  app.get('/saml/auth', async (request, reply) => {
    const { domain, redirect_to: redirectTo } = request.query as {
      domain?: unknown;
      redirect_to?: unknown;
    };
    if (typeof redirectTo !== 'string' || !provider.saml.redirectAllowed(redirectTo)) {
      return reply.code(400).send({ code: 400, message: 'redirect_to: value_invalid_error' });
    }
    if (typeof domain !== 'string' || !provider.saml.provider(domain)) {
      const back = new URL(redirectTo);
      back.searchParams.set('error', 'invalid_request');
      back.searchParams.set('error_description', 'no SAML provider for this domain');
      return reply.header('cache-control', 'no-store').redirect(back.toString(), 307);
    }
    return reply
      .header('cache-control', 'no-store')
      .redirect(await provider.saml.begin(domain, redirectTo), 307);
  });
  app.get('/saml/metadata', async (_request, reply) => {
    if (!provider.saml.enabled) return reply.code(404).send({ code: 404, message: 'Not Found' });
    return reply.type('application/samlmetadata+xml').send(provider.saml.metadata());
  });
  app.register(async (scope) => {
    formPostParser(scope);
    scope.post('/saml/callback', async (request, reply) => {
      const body =
        request.body && typeof request.body === 'object'
          ? (request.body as Record<string, unknown>)
          : {};
      const location = await provider.saml.callback(body, (error) =>
        app.log.warn({ error: loggableError(error) }, 'SAML sign-in refused'),
      );
      return reply.header('cache-control', 'no-store').redirect(location, 303);
    });
  });

  app.get('/.well-known/jwks.json', async (_request, reply) =>
    reply.header('cache-control', 'max-age=600').send(provider.jwks()),
  );

  async function validation(token: string | null, touch: boolean) {
    const session = token ? await sessions.verify(token) : null;
    if (!session) return { is_valid: false };
    if (touch) await sessions.touch(session.sessionId);
    return {
      is_valid: true,
      claims: session.claims,
      expiration_time: session.claims.expiration,
      user_id: session.userId,
    };
  }

  app.get('/sessions/validate', async (request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .send(await validation(sessionToken(request, auth.AUTH_COOKIE_NAME), false)),
  );

  app.post('/sessions/validate', async (request, reply) => {
    const body = request.body as { session_token?: unknown } | undefined;
    const token = typeof body?.session_token === 'string' ? body.session_token : null;
    return reply.header('cache-control', 'no-store').send(await validation(token, true));
  });

  app.get('/me', async (request, reply) => {
    const token = sessionToken(request, auth.AUTH_COOKIE_NAME);
    const session = token ? await sessions.verify(token) : null;
    if (!session) return unauthorized(reply);
    const profile = await profileData(provider.db, session.userId, auth);
    if (!profile) return reply.code(404).send({ code: 404, message: 'Not Found' });
    return reply.header('cache-control', 'no-store').send(profile);
  });

  app.post('/logout', async (request, reply) => {
    const token = sessionToken(request, auth.AUTH_COOKIE_NAME);
    const session = token ? await sessions.verify(token) : null;
    if (!session) return unauthorized(reply);
    await sessions.revoke(session.sessionId);
    return reply
      .code(204)
      .header('set-cookie', sessionCookie(auth, '', 0))
      .send();
  });
}

/**
 * form_post callbacks (OIDC, SAML): application/x-www-form-urlencoded, parsed with
 * URLSearchParams. The host app may parse such bodies its own way (the product's mailing-list
 * webhook), so this scope replaces whatever it inherited.
 */
function formPostParser(scope: FastifyInstance) {
  if (scope.hasContentTypeParser('application/x-www-form-urlencoded')) {
    scope.removeContentTypeParser('application/x-www-form-urlencoded');
  }
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );
}
