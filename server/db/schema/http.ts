import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, ownedBy } from './columns';
import { users } from './core';

// Tables the HTTP layer keeps in the database, so that every API instance shares them.

/**
 * Rate-limit counters of `rate-limiter-flexible` (RateLimiterPostgres): the library's own
 * layout (key, points, expire in epoch milliseconds), created here by the migrations
 * instead of by the library at start. Keys are `<limiter>:<caller key>`.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: varchar('key', { length: 255 }).primaryKey(),
    points: integer('points').notNull().default(0),
    expire: bigint('expire', { mode: 'number' }),
  },
  (t) => [index('rate_limits_expire_idx').on(t.expire)],
);

/**
 * The first answer to a request sent with an `Idempotency-Key` header, per user and
 * operation; a repeat within 24 h is answered from here. `status` and `responseBody` are
 * empty only inside the transaction that runs the first request.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: ownedBy('user_id', () => users.id),
    operationId: text('operation_id').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the request (path parameters, query and body). */
    requestHash: text('request_hash').notNull(),
    status: integer('status'),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_keys_pkey', columns: [t.userId, t.operationId, t.key] }),
    index('idempotency_keys_created_at_idx').on(t.createdAt),
  ],
);
