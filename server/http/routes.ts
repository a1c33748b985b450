import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerToken, checkRoles, resolvePrincipal, type Principal } from './auth';
import { toFastifyPath, type Operation } from './contract';
import type { AppDeps, HandlerContext, Handlers, OperationId } from './handler';
import {
  declaresIdempotencyKey,
  IDEMPOTENCY_HEADER,
  requestHash,
  withIdempotency,
} from './idempotency';
import { notImplemented, unauthorized } from './problem';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    operation?: Operation;
  }
}

/** Compared as SHA-256 digests in constant time, so neither content nor length leaks. */
function sameSecret(given: unknown, expected: string | undefined): boolean {
  if (!expected || typeof given !== 'string') return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const ANONYMOUS: Principal = {
  subject: '',
  email: null,
  user: null,
  role: 'NONE',
  active: false,
};

/** Registers every contract operation; those without a handler answer 501. */
export function registerOperations(
  app: FastifyInstance,
  operations: Operation[],
  handlers: Handlers,
  deps: AppDeps,
  prefix = '/api',
) {
  app.decorateRequest('principal', null);

  async function authenticate(request: FastifyRequest) {
    const operation = request.routeOptions.config.operation;
    if (!operation) return;
    const { access } = operation;
    if (access.kind === 'public') return;
    if (access.kind === 'webhookSecret') {
      const query = request.query as Record<string, unknown>;
      if (!sameSecret(query.secret, deps.config.MAILCHIMP_WEBHOOK_SECRET)) {
        throw unauthorized('The webhook secret is missing or wrong');
      }
      delete query.secret;
      return;
    }
    const claims = await deps.verifyToken(bearerToken(request.headers.authorization));
    const principal = await resolvePrincipal(deps.db, claims, deps.config.PRINCIPAL_CACHE_MS);
    checkRoles(principal, access.roles, access.allowInactive);
    request.principal = principal;
  }

  for (const operation of operations) {
    const handler = handlers[operation.operationId as OperationId] as
      ((ctx: HandlerContext<OperationId>) => Promise<unknown>) | undefined;
    const idempotent = declaresIdempotencyKey(operation);
    app.route({
      method: operation.method.toUpperCase() as 'GET',
      url: prefix + toFastifyPath(operation.path),
      schema: operation.schema,
      config: { operation },
      onRequest: authenticate,
      handler: async (request, reply) => {
        if (!handler) throw notImplemented(operation.operationId);
        const run = async (runDeps: AppDeps) => {
          const result = await handler({
            params: request.params as never,
            query: request.query as never,
            body: request.body as never,
            principal: request.principal ?? ANONYMOUS,
            deps: runDeps,
            request,
            reply,
          });
          const status = result === undefined && reply.statusCode === 200 ? 204 : reply.statusCode;
          return { status, body: result ?? null };
        };
        const key = idempotent ? request.headers[IDEMPOTENCY_HEADER] : undefined;
        const userId = request.principal?.user?.id;
        const outcome =
          typeof key === 'string' && userId
            ? await withIdempotency(
                deps.db,
                {
                  userId,
                  operationId: operation.operationId,
                  key,
                  requestHash: requestHash(request),
                },
                // The handler's writes share the transaction that remembers the answer.
                (tx) => run({ ...deps, db: tx }),
                deps.now(),
              )
            : await run(deps);
        reply.code(outcome.status);
        // No result (204, or a status the handler set) answers without a body.
        return outcome.body === null ? reply.send() : outcome.body;
      },
    });
  }
}
