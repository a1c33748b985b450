import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from '../app';
import { loadConfig, type Config } from '../config';
import type { Database } from '../db/client';
import { coaches, users } from '../db/schema/index';
import { createTokenVerifier, mountedProviderKeys } from '../http/auth';
import type { Operation } from '../http/contract';
import { createRateLimiters, type RateRules } from '../http/rate-limit';
import { createTestDatabase } from './test-database';
import { createTestIssuer } from './test-auth';
import { mailOutbox } from '../features/notifications/index';
import { createAuthProvider, type AuthProvider } from '../auth-provider/provider';
import { loadAuthConfig } from '../auth-provider/config';
import { applyAuthUserEvent } from '../features/auth-sync/index';

export type TestRole = 'NONE' | 'COACH' | 'ADMIN' | 'ONBOARDING_MANAGER' | 'SUPERADMIN';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** The mounted provider (`withAuthProvider`), whose tokens the product then accepts. */
  authProvider: AuthProvider | null;
  /** Signs a token for a subject that has no users row yet. */
  tokenFor(claims?: { sub?: string; email?: string; expiresIn?: string }): Promise<string>;
  /** Creates a users row (and a coach for COACH) and returns its bearer header. */
  signIn(
    role: TestRole,
    options?: { active?: boolean; coachId?: string },
  ): Promise<{ authorization: string; userId: string; coachId: string | null; email: string }>;
  close(): Promise<void>;
}

/** One answer the app gave, with the contract operation that produced it. */
export interface SeenResponse {
  operation: Operation | undefined;
  status: number;
  contentType: string;
  /** The body as sent; null for a streamed body. */
  payload: string | null;
}

export async function createTestApp(
  options: BuildOptions & {
    template?: string;
    env?: Record<string, string>;
    onResponse?: (seen: SeenResponse) => void;
    /** Tighter (or looser) rate limits than the production ones; counted in memory. */
    rateLimits?: Partial<RateRules>;
    /**
     * Mount the real authentication provider at /auth (mails captured) and let the product
     * verify its tokens in-process, as in the default set-up. Off: the test issuer's tokens.
     */
    withAuthProvider?: boolean;
    /** The server's clock (deps.now); default the real one. */
    now?: () => Date;
    /** An existing database (a restored copy) instead of a fresh one; closed with the app. */
    database?: Database;
  } = {},
): Promise<TestApp> {
  const { withAuthProvider, now, database: given, ...buildOptions } = options;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    MAILCHIMP_WEBHOOK_SECRET: 'test-webhook-secret-0123456789',
    ...options.env,
  });
  const database = given ?? (await createTestDatabase(options.template));
  const issuer = await createTestIssuer(config.AUTH_ISSUER, config.AUTH_AUDIENCE);
  const rateLimits = createRateLimiters({ kind: 'memory' }, options.rateLimits);
  const authProvider = withAuthProvider
    ? await createAuthProvider({
        db: database.db,
        config,
        auth: loadAuthConfig({ ...options.env }),
        rateLimits,
        // The app's job queue, started by buildApp below, before any flow runs.
        mailer: mailOutbox(() => app.jobs),
        // The app's job queue too (client.updated webhooks), started before any event can come.
        onUserEvent: (event) => applyAuthUserEvent(database.db, app.jobs, event),
        ...(now ? { now } : {}),
      })
    : null;
  const app = await buildApp(
    {
      config,
      db: database.db,
      verifyToken: createTokenVerifier({
        issuer: config.AUTH_ISSUER,
        audience: config.AUTH_AUDIENCE,
        ...(authProvider ? mountedProviderKeys(authProvider) : { jwks: issuer.jwks }),
      }),
      now: now ?? (() => new Date()),
      rateLimits,
    },
    { logger: false, ...buildOptions, ...(authProvider ? { authProvider } : {}) },
  );
  const { onResponse } = options;
  if (onResponse) {
    app.addHook('onSend', async (request, reply, payload) => {
      onResponse({
        operation: request.routeOptions.config.operation,
        status: reply.statusCode,
        contentType: String(reply.getHeader('content-type') ?? ''),
        // A stream (files, long answers) is not read here: its status and type still count.
        payload:
          typeof payload === 'string'
            ? payload
            : Buffer.isBuffer(payload)
              ? payload.toString('utf8')
              : payload == null
                ? ''
                : null,
      });
      return payload;
    });
  }
  await app.ready();

  return {
    app,
    database,
    config,
    authProvider,
    tokenFor: (claims) => issuer.sign(claims),
    async signIn(role, { active = true, coachId } = {}) {
      const sub = randomUUID();
      const email = `${role.toLowerCase()}-${sub.slice(0, 8)}@example.test`;
      let coach = coachId ?? null;
      if (role === 'COACH' && !coach) {
        const [row] = await database.db
          .insert(coaches)
          .values({ firstName: 'Test', lastName: `Coach ${sub.slice(0, 4)}`, email })
          .returning({ id: coaches.id });
        coach = row!.id;
      }
      const [user] = await database.db
        .insert(users)
        .values({ authSubject: sub, email, role, active, coachId: coach })
        .returning({ id: users.id });
      return {
        authorization: `Bearer ${await issuer.sign({ sub, email })}`,
        userId: user!.id,
        coachId: coach,
        email,
      };
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}
