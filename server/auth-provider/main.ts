// `npm run start:auth`: the authentication provider alone, under /auth on PORT (the product
// then points AUTH_JWKS_URL at http://<host>:<port>/auth/.well-known/jwks.json).
import closeWithGrace from 'close-with-grace';
import Fastify from 'fastify';
import type pg from 'pg';
import { createMailer } from '../adapters/mail/mailer';
import { registerDevMailbox } from '../adapters/mail/mailbox';
import { loadConfig } from '../config';
import { connectDatabase } from '../db/client';
import { errorHandler, loggableError, loggerOptions } from '../http/problem';
import { createRateLimiters } from '../http/rate-limit';
import { httpServerOptions } from '../http/server-options';
import { authProviderPlugin } from './plugin';
import { createAuthProvider } from './provider';

const config = loadConfig();
const database = await connectDatabase(config);
await database.migrate();
const rateLimits = createRateLimiters(
  database.kind === 'postgres'
    ? { kind: 'postgres', pool: (database.db as unknown as { $client: pg.Pool }).$client }
    : { kind: 'memory' },
);
const provider = await createAuthProvider({
  db: database.db,
  config,
  rateLimits,
  mailer: createMailer({ db: database.db, from: config.MAIL_FROM, smtpUrl: config.SMTP_URL }),
});

const app = Fastify({
  logger: loggerOptions(config.LOG_LEVEL),
  trustProxy: config.TRUST_PROXY,
  // The same timeouts and body limit as the app (config.ts).
  ...httpServerOptions(config),
});
app.setErrorHandler(errorHandler);
await app.register(authProviderPlugin, { prefix: '/auth', provider });
if (config.NODE_ENV !== 'production') registerDevMailbox(app, database.db);

closeWithGrace({ delay: 10_000 }, async ({ err }) => {
  if (err) app.log.error({ error: loggableError(err) }, 'shutting down after an error');
  await app.close();
  // Webhook deliveries to the product still under way finish first.
  await provider.events.settle();
  await database.close();
});

await app.listen({ host: config.HOST, port: config.PORT });
