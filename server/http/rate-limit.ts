import type pg from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Database } from '../db/client';
import { countRateLimitHit } from '../metrics/registry';
import { tooManyRequests } from './problem';

/** At most `points` per `durationSeconds` (a fixed window that starts with the first point). */
export interface RateRule {
  points: number;
  durationSeconds: number;
}

const QUARTER_HOUR = 15 * 60;

/**
 * Every limit the API applies, by name. Each name is its own counter; the caller picks the
 * key (a subject, an IP address, an e-mail address…) when it consumes.
 */
export const RATE_RULES = {
  /** Activation codes entered by one signed-in person (a success resets the count). */
  activationCode: { points: 10, durationSeconds: QUARTER_HOUR },
  /** Activation codes entered from one IP address, whoever signs in there. */
  activationCodeIp: { points: 100, durationSeconds: QUARTER_HOUR },
  /** Passcode e-mails to one address from one IP address (Hanko: 3 per minute). */
  passcodeSend: { points: 3, durationSeconds: 60 },
  /**
   * Passcode e-mails to one address from one IP address, per quarter-hour: each caller's own
   * allowance, so a stranger who spends his leaves the owner's (server/auth-provider/passcode-limits.ts).
   */
  passcodeSendCaller: { points: 10, durationSeconds: QUARTER_HOUR },
  /**
   * New passcodes for one address asked by callers not recognised as its owner's: a ceiling
   * for distributed floods. Requests while a code lives share that code and do not count, so
   * strangers only asking for codes reach it no faster than one per code lifetime.
   */
  passcodeSendAddress: { points: 40, durationSeconds: QUARTER_HOUR },
  /**
   * Passcode mails one address receives per hour, from all callers: a live code is mailed
   * again only below it (a new code is always mailed, or it would be of no use).
   */
  passcodeMailAddress: { points: 5, durationSeconds: 60 * 60 },
  /** Passcodes entered from one IP address (each code also dies after 3 wrong tries). */
  passcodeAttempt: { points: 30, durationSeconds: 60 },
  /** Password attempts for one identifier from one IP address (Hanko: 5 per minute). */
  passwordAttempt: { points: 5, durationSeconds: 60 },
  /** Password attempts for one identifier, from anywhere. */
  passwordAttemptIdentifier: { points: 20, durationSeconds: QUARTER_HOUR },
  /** Unauthenticated account calls of the provider (`POST /auth/user`, `/auth/users`) per IP. */
  authAccountLookup: { points: 20, durationSeconds: 60 },
  /** Support requests by one person (each one mails the team and the sender). */
  supportMessage: { points: 5, durationSeconds: QUARTER_HOUR },
  /**
   * Look-ups by meeting code (meeting pages and room tokens), per IP: enough for people who
   * open their meeting, far too few to guess 60-bit codes.
   */
  meetingCodeLookup: { points: 30, durationSeconds: 60 },
  /** Calendar feed fetches by secret address, per IP (calendar apps poll every few minutes). */
  calendarFeed: { points: 120, durationSeconds: 60 },
  /** Client sign-ups (and their validate-only checks) from one IP address. */
  clientSignup: { points: 20, durationSeconds: QUARTER_HOUR },
  /** Sign-in links sent to one client (by id or e-mail address), whoever asks. */
  clientAuthRequest: { points: 3, durationSeconds: QUARTER_HOUR },
  /** Sign-in links requested by one staff member. */
  clientAuthRequestCaller: { points: 30, durationSeconds: QUARTER_HOUR },
  /** Contract reminders to one client: a nudge, not a flood. */
  contractReminder: { points: 2, durationSeconds: 24 * 60 * 60 },
} satisfies Record<string, RateRule>;

export type RateLimitName = keyof typeof RATE_RULES;
export type RateRules = Record<RateLimitName, RateRule>;

export interface RateLimiter {
  /**
   * Counts `points` for `key`. Once the key is over its limit this throws the 429 problem
   * `rate_limited` with `Retry-After` (seconds until the window ends).
   */
  consume(key: string, points?: number): Promise<void>;
  /** Forgets the key's count, e.g. after the attempt it guards succeeded. */
  reset(key: string): Promise<void>;
}

export type RateLimiters = Record<RateLimitName, RateLimiter>;

/**
 * Where counters live: PostgreSQL (table `rate_limits`, created by the migrations), so every
 * API instance shares them; or process memory for the embedded database, which only ever
 * has one process.
 */
export type RateLimitStore = { kind: 'memory' } | { kind: 'postgres'; pool: pg.Pool };

const TABLE = 'rate_limits';

function wrap(name: RateLimitName, limiter: RateLimiterAbstract): RateLimiter {
  return {
    async consume(key, points = 1) {
      try {
        await limiter.consume(key, points);
      } catch (rejection) {
        // The library rejects with the counter state when over the limit, or with a store error.
        if (rejection instanceof RateLimiterRes) {
          countRateLimitHit(name);
          throw tooManyRequests(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
        }
        throw rejection;
      }
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}

/**
 * The store of a start command's limiters: PostgreSQL (on the app's pool), so every instance
 * shares the counters; the embedded database has one process, so memory serves.
 */
export const rateLimitStoreOf = (database: Pick<Database, 'db' | 'kind'>): RateLimitStore =>
  database.kind === 'postgres'
    ? { kind: 'postgres', pool: (database.db as unknown as { $client: pg.Pool }).$client }
    : { kind: 'memory' };

/** Builds every limiter of RATE_RULES on one store; `rules` overrides limits (tests). */
export function createRateLimiters(
  store: RateLimitStore,
  rules: Partial<RateRules> = {},
): RateLimiters {
  const effective: RateRules = { ...RATE_RULES, ...rules };
  const entries = Object.entries(effective) as Array<[RateLimitName, RateRule]>;
  return Object.fromEntries(
    entries.map(([name, rule], index) => {
      const options = { keyPrefix: name, points: rule.points, duration: rule.durationSeconds };
      const limiter =
        store.kind === 'memory'
          ? new RateLimiterMemory(options)
          : new RateLimiterPostgres({
              ...options,
              storeClient: store.pool,
              storeType: 'pool',
              tableName: TABLE,
              tableCreated: true,
              // One limiter is enough to sweep expired rows of the shared table.
              clearExpiredByTimeout: index === 0,
              // Should the database hiccup, count in memory rather than fail the request.
              insuranceLimiter: new RateLimiterMemory(options),
            });
      return [name, wrap(name, limiter)];
    }),
  ) as RateLimiters;
}
