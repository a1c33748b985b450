import { buildApp } from './app';
import { startupConfig } from './config';
import { connectDatabase } from './db/client';
import { seedIfEmpty } from './seed/seed';
import { formatStartBanner } from './seed/summary';
import { createTokenVerifier, mountedProviderKeys } from './http/auth';
import { shutDownOnSignal } from './http/drain';
import { prettyLogStream } from './http/log-stream';
import { createRateLimiters, rateLimitStoreOf } from './http/rate-limit';
import { mailOutbox } from './features/notifications/index';
import type { JobQueue } from './jobs/queue';
import { createAuthProvider } from './auth-provider/provider';
import { webBuildDone } from './web/build-gate';
import { applyAuthUserEvent } from './features/auth-sync/index';
import { sealStoredSecrets } from './features/webhooks/index';
import { sealStoredPasswords } from './features/calendars/index';

const started = performance.now();
// Invalid settings, or development secrets in production, end the start here with one message.
const config = startupConfig();
const database = await connectDatabase(config);
await database.migrate();
const migratedMs = Math.round(performance.now() - started);
// Webhook signing secrets still in clear text (written before they were sealed) or sealed with
// WEBHOOK_SECRET_KEY_PREVIOUS are sealed with the current key.
const unreadableWebhookSecrets: string[] = [];
const webhookSecretsSealed = await sealStoredSecrets(database.db, config, (type) =>
  unreadableWebhookSecrets.push(type),
);
// Calendar app passwords likewise: after a key rotation they open with the new key alone.
const unreadableCalendarPasswords: string[] = [];
const calendarPasswordsSealed = await sealStoredPasswords(database.db, config, (id) =>
  unreadableCalendarPasswords.push(id),
);
const seeded =
  (config.SEED_DEMO_DATA ?? database.kind === 'pglite')
    ? await seedIfEmpty(database.db, { holidayState: config.HOLIDAY_STATE })
    : null;

// Rate-limit counters shared by every instance (in PostgreSQL; in memory on PGlite).
const rateLimits = createRateLimiters(rateLimitStoreOf(database));

// The job queue starts with the app (below); sign-in mails reach it through the outbox, and
// user events their client.updated webhooks, once requests are served.
const running: { jobs?: JobQueue } = {};
const startedJobs = () => {
  if (!running.jobs) throw new Error('The job queue is not started');
  return running.jobs;
};
const outbox = mailOutbox(startedJobs);

// Default set-up: the authentication provider runs in this process under /auth, and the
// product verifies its tokens with the provider's keys and session table, without HTTP.
// With AUTH_JWKS_URL the provider runs elsewhere (npm run start:auth, or a hosted one).
const authProvider = config.AUTH_JWKS_URL
  ? undefined
  : await createAuthProvider({
      db: database.db,
      config,
      rateLimits,
      mailer: outbox,
      // Created/deleted users and changed primary e-mails reach the product directly.
      onUserEvent: (event) => applyAuthUserEvent(database.db, startedJobs(), event),
    });
const verifyToken = createTokenVerifier({
  issuer: config.AUTH_ISSUER,
  audience: config.AUTH_AUDIENCE,
  ...(authProvider ? mountedProviderKeys(authProvider) : { jwks: new URL(config.AUTH_JWKS_URL!) }),
});

// The web app's files are listed when the app is built (npm start may still be building them).
await webBuildDone();
// Development: one readable line per log entry; elsewhere JSON for the log collector.
const logFormat = config.LOG_FORMAT ?? (config.NODE_ENV === 'development' ? 'pretty' : 'json');
const logStream = logFormat === 'pretty' ? prettyLogStream() : undefined;
const app = await buildApp(
  { config, db: database.db, verifyToken, now: () => new Date(), rateLimits },
  { ...(authProvider ? { authProvider } : {}), ...(logStream ? { logStream } : {}) },
);
running.jobs = app.jobs;

// A drain of SHUTDOWN_DRAIN_MS first (readiness 503, requests still served, each answer
// closing its connection) so the load balancer moves callers to the other instances; then
// in-flight requests finish, the port closes, and the database closes.
shutDownOnSignal(app, { drainMs: config.SHUTDOWN_DRAIN_MS, database });

await app.listen({ host: config.HOST, port: config.PORT });
app.log.info(
  {
    database: database.kind,
    migratedMs,
    seeded: seeded ? { ...seeded.counts, ms: seeded.durationMs } : false,
    readyMs: Math.round(performance.now() - started),
    webhookSecretsSealed,
    calendarPasswordsSealed,
  },
  'ready',
);
if (unreadableWebhookSecrets.length > 0) {
  app.log.warn(
    { webhookTypes: unreadableWebhookSecrets },
    'webhook signing secrets do not open with WEBHOOK_SECRET_KEY: set WEBHOOK_SECRET_KEY_PREVIOUS or rotate them',
  );
}
if (unreadableCalendarPasswords.length > 0) {
  app.log.warn(
    { calendarConnections: unreadableCalendarPasswords },
    'calendar app passwords do not open with WEBHOOK_SECRET_KEY: set WEBHOOK_SECRET_KEY_PREVIOUS or have the coaches connect again',
  );
}
if (config.NODE_ENV === 'development') {
  const { port } = app.server.address() as { port: number };
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  process.stdout.write(
    formatStartBanner(`http://${host}:${port}`, { mailbox: !config.SMTP_URL, seeded }),
  );
}
