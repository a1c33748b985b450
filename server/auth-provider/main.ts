// `npm run start:auth`: the authentication provider alone, under /auth on PORT (the product
// then points AUTH_JWKS_URL at http://<host>:<port>/auth/.well-known/jwks.json).
import Fastify from 'fastify';
import { createMailer } from '../adapters/mail/mailer';
import { countedMailer } from '../metrics/outcomes';
import { registerDevMailbox } from '../adapters/mail/mailbox';
import { startupConfig } from '../config';
import { connectDatabase } from '../db/client';
import { errorHandler, loggableError, loggerOptions, notFoundHandler } from '../http/problem';
import { trackAllowedMethods } from '../http/allowed-methods';
import { createRateLimiters, rateLimitStoreOf } from '../http/rate-limit';
import { authMailJob, mailOutbox } from '../features/notifications/index';
import { startJobQueue } from '../jobs/queue';
import { httpServerOptions } from '../http/server-options';
import { registerHealth } from '../http/health';
import { registerDrain, shutDownOnSignal } from '../http/drain';
import { registerMetrics } from '../metrics/endpoint';
import { createOutageLog } from '../http/outage-log';
import { authProviderPlugin } from './plugin';
import { createAuthProvider } from './provider';

const config = startupConfig();
const database = await connectDatabase(config);
await database.migrate();
const rateLimits = createRateLimiters(rateLimitStoreOf(database));
const app = Fastify({
  logger: loggerOptions(config.LOG_LEVEL),
  trustProxy: config.TRUST_PROXY,
  // The same timeouts and body limit as the app (config.ts).
  ...httpServerOptions(config),
});

// A database outage: one line when it begins and one when it ends (server/http/outage-log.ts).
const outage = createOutageLog({ log: app.log, db: database.db });
app.decorate('databaseOutage', outage);
app.addHook('onClose', async () => outage.stop());

// Sign-in mails go through the job queue in the shared database (pg-boss schema `pgboss`),
// on the queue of their own that this process works (the product's workers may too).
const jobs = await startJobQueue({
  db: database.db,
  workers: config.JOBS_WORKERS ?? config.NODE_ENV !== 'test',
  onError: (error, context) => {
    if (outage.connectionFailure(error, { job: context })) return;
    app.log.error({ error: loggableError(error), context }, 'job failed');
  },
  definitions: [
    authMailJob({
      db: database.db,
      mailer: countedMailer(
        createMailer({ db: database.db, from: config.MAIL_FROM, smtpUrl: config.SMTP_URL }),
      ),
    }),
  ],
});
const provider = await createAuthProvider({
  db: database.db,
  config,
  rateLimits,
  mailer: mailOutbox(() => jobs),
});

app.decorate('allowedMethods', trackAllowedMethods(app));
app.setErrorHandler(errorHandler);
app.setNotFoundHandler(notFoundHandler);
// The same probes as the product's, for the orchestrator of a stand-alone provider.
const drain = registerDrain(app);
registerMetrics(app, { db: database.db, token: config.METRICS_TOKEN });
registerHealth(app, database.db, config.READINESS_TIMEOUT_MS, drain);
await app.register(authProviderPlugin, { prefix: '/auth', provider });
if (config.NODE_ENV !== 'production') registerDevMailbox(app, database.db);

// Drain first (readiness 503, connections closed after their answer), then close.
shutDownOnSignal(app, {
  drainMs: config.SHUTDOWN_DRAIN_MS,
  database,
  beforeDatabase: async () => {
    // Webhook deliveries to the product still under way finish first.
    await provider.events.settle();
    await jobs.stop();
  },
});

await app.listen({ host: config.HOST, port: config.PORT });
