import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { loadOperations, productContractPath, readContract } from './http/contract';
import type { AppDeps, Handlers } from './http/handler';
import { errorHandlerWith, loggableError, loggerOptions } from './http/problem';
import { registerOperations } from './http/routes';
import { trackAllowedMethods } from './http/allowed-methods';
import { contractValidatorCompiler } from './http/validation';
import { allConstraintProblems, allHandlers } from './features/index';
import { appointmentOutcome } from './features/appointments/index';
import { followAppointment } from './features/clinical/index';
import { TransactionEvents } from './db/transaction-events';
import { registerWeb } from './web/static';
import { registerAuthEventRawBody } from './features/auth-sync/index';
import { registerMailingListFormBody } from './features/mailing-list/index';
import { registerDevMailbox } from './adapters/mail/mailbox';
import { authProviderPlugin } from './auth-provider/plugin';
import type { AuthProvider } from './auth-provider/provider';
import { startAppJobs, type AppJobsOptions } from './app-jobs';
import { registerSecurityHeaders } from './http/security-headers';
import { registerApiCors } from './http/cors';
import { registerHealth } from './http/health';
import { registerDrain } from './http/drain';
import { registerMetrics } from './metrics/endpoint';
import { countJobFailure } from './metrics/registry';
import { createOutageLog } from './http/outage-log';
import { httpServerOptions } from './http/server-options';
import type { JobQueue } from './jobs/queue';
import type { Db } from './db/client';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's job queue (started with the app, stopped when it closes). */
    jobs: JobQueue;
  }
}

export interface BuildOptions {
  /** Override handlers (tests); defaults to every feature's handlers. */
  handlers?: Handlers;
  logger?: boolean;
  /** Where the log goes instead of stdout (tests read it). */
  logStream?: { write(line: string): void };
  /** The authentication provider mounted at /auth (the default set-up). */
  authProvider?: AuthProvider;
  /** Job queue settings (tests: no workers, a controllable clock, fake adapters). */
  jobs?: Omit<AppJobsOptions, 'db' | 'config'>;
}

export async function buildApp(
  baseDeps: Omit<AppDeps, 'jobs' | 'events' | 'db'> & { db: Db },
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            ...loggerOptions(baseDeps.config.LOG_LEVEL),
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    // Behind a load balancer, request.ip is the caller's address only when the proxy is trusted.
    trustProxy: baseDeps.config.TRUST_PROXY,
    ...httpServerOptions(baseDeps.config),
  });
  app.setValidatorCompiler(contractValidatorCompiler);
  // Before any route: every route registered from here on is known to the 405 answer.
  app.decorate('allowedMethods', trackAllowedMethods(app));

  // A database outage is logged when it begins and ends, not by every request and job poll.
  const outage = createOutageLog({ log: app.log, db: baseDeps.db });
  app.decorate('databaseOutage', outage);
  app.addHook('onClose', async () => outage.stop());

  // Jobs start with the app (workers unless switched off) and stop when it closes, before
  // the database does.
  const jobs = await startAppJobs({
    db: baseDeps.db,
    config: baseDeps.config,
    now: baseDeps.now,
    onError: (error, context) => {
      if (context.startsWith('job ')) countJobFailure(context.slice(4));
      if (outage.connectionFailure(error, { job: context })) return;
      app.log.error({ error: loggableError(error), context }, 'job failed');
    },
    ...options.jobs,
  });
  app.decorate('jobs', jobs);
  app.addHook('onClose', async () => jobs.stop());
  // Features follow each other's changes through events subscribed here, per app.
  const events = new TransactionEvents();
  // A summary draft is canceled with its appointment (and back when a no-show is taken back).
  events.on(appointmentOutcome, followAppointment);
  const deps = { ...baseDeps, jobs, events } satisfies AppDeps;

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  const drain = registerDrain(app);
  registerMetrics(app, { db: deps.db, token: deps.config.METRICS_TOKEN });

  registerSecurityHeaders(app, deps.config);
  registerApiCors(app, deps.config.API_ALLOWED_ORIGINS);

  // A feature's constraint that a race reaches answers as the feature's own check does.
  app.setErrorHandler(errorHandlerWith(allConstraintProblems));

  const document = readContract();
  await app.register(swagger, {
    mode: 'static',
    specification: { path: productContractPath, baseDir: undefined as never },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => document);

  const operations = await loadOperations(document);
  registerAuthEventRawBody(app);
  registerMailingListFormBody(app);
  registerOperations(app, operations, options.handlers ?? allHandlers, deps);
  registerHealth(app, deps.db, deps.config.READINESS_TIMEOUT_MS, drain);

  if (options.authProvider) {
    await app.register(authProviderPlugin, { prefix: '/auth', provider: options.authProvider });
  }
  if (deps.config.NODE_ENV !== 'production') registerDevMailbox(app, deps.db);

  await registerWeb(app, deps.config);
  return app;
}
