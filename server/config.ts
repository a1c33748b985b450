import { z } from 'zod';
import { DEFAULT_JOIN_MINUTES } from '../shared/meeting-window';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * Development default of WEBHOOK_SECRET_KEY: public, so secrets sealed with it are protected
 * from nobody who has read this file. Production sets its own (the server warns at start).
 */
export const DEV_WEBHOOK_SECRET_KEY = 'sprechstunde-development-only-webhook-secret-key';

/**
 * The development key of the research export's pseudonyms (features/research/key.ts): public,
 * used while RESEARCH_PSEUDONYM_KEY is unset outside production.
 */
export const DEV_RESEARCH_PSEUDONYM_KEY =
  'sprechstunde-development-research-pseudonym-key-not-secret';

/** Comma-separated origins (`https://app.example.org`), each reduced to its origin. */
const originList = z
  .string()
  .optional()
  .refine(
    (v) =>
      (v ?? '')
        .split(',')
        .map((o) => o.trim())
        .every((o) => o === '' || (URL.canParse(o) && new URL(o).origin !== 'null')),
    'a comma-separated list of origins such as https://app.example.org',
  )
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean)
      .map((o) => new URL(o).origin),
  );

const schema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** PostgreSQL connection string; unset means the embedded PGlite database. */
  DATABASE_URL: z.string().url().optional(),
  /** Where the embedded database keeps its files. */
  PGLITE_DIR: z.string().default('./.data/pglite'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Where `npm run backup` writes its files; copy them off the machine (docs/backup.md). */
  BACKUP_DIR: z.string().default('./.data/backups'),
  /** Days `npm run backup` keeps older backups in BACKUP_DIR (the newest is always kept). */
  BACKUP_KEEP_DAYS: z.coerce.number().int().min(1).max(3650).default(35),
  /** Directory of pg_dump and pg_restore when they are not on the PATH (e.g. /usr/lib/postgresql/15/bin). */
  PG_BIN: z.string().optional(),
  /** Seed German demo data into an empty database at start (default on for the embedded database). */
  SEED_DEMO_DATA: bool.optional(),
  /**
   * How long an instance reuses a caller's users row (role, active) before reading it again;
   * the instance that changes a row forgets it at once. 0 reads it on every call.
   */
  PRINCIPAL_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /** JWKS of the authentication provider; unset means the provider mounted in this process. */
  AUTH_JWKS_URL: z.string().url().optional(),
  /**
   * Issuer of the session tokens. Unset: PUBLIC_URL + /auth in development (where the provider
   * is mounted), http://localhost:3000/auth elsewhere.
   */
  AUTH_ISSUER: z.string().optional(),
  AUTH_AUDIENCE: z.string().default('sprechstunde'),
  /**
   * Public origin of the app, used in links in e-mails (and, unset, the provider's allowed
   * origins and WebAuthn origin). Unset: http://localhost:PORT in development,
   * http://localhost:3000 elsewhere.
   */
  PUBLIC_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty`: one readable line per entry (default in development); `json`: one JSON object per line. */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  /** Directory of the built web app. */
  WEB_DIST_DIR: z.string().default('./dist/web'),
  /** SMTP server for outgoing mail (smtp://user:pass@host:587); unset = mails are captured. */
  SMTP_URL: z.string().url().optional(),
  /** Sender of outgoing mail. */
  MAIL_FROM: z.string().min(3).default('Sprechstunde <no-reply@sprechstunde.invalid>'),
  /** Name of the practice: organizer of calendar invitations, signature of messages. */
  PRACTICE_NAME: z.string().min(1).max(100).default('Sprechstunde'),
  /** The practice as invoices name it (§ 14 Abs. 4 Nr. 1, 2 UStG): address and tax number. */
  PRACTICE_STREET: z.string().min(1).max(200).default('Musterstraße 1'),
  PRACTICE_POSTAL_CODE: z.string().min(1).max(20).default('10115'),
  PRACTICE_CITY: z.string().min(1).max(100).default('Berlin'),
  /** Steuernummer; development default is a placeholder, set the real one in production. */
  PRACTICE_TAX_NUMBER: z.string().min(1).max(40).default('11/111/11111'),
  /** USt-IdNr., if the practice has one (printed and sent in the XRechnung besides the tax number). */
  PRACTICE_VAT_ID: z
    .string()
    .regex(/^[A-Z]{2}[0-9A-Z]{2,13}$/)
    .optional(),
  PRACTICE_EMAIL: z.string().email().default('rechnung@sprechstunde.invalid'),
  /** Seller contact telephone (XRechnung BR-DE-6). */
  PRACTICE_PHONE: z.string().min(3).max(40).default('+49 30 1234567'),
  PRACTICE_IBAN: z
    .string()
    .regex(/^[A-Z]{2}[0-9]{2}[0-9A-Z]{10,30}$/)
    .default('DE02120300000000202051'),
  /** Days from the invoice date to the due date. */
  INVOICE_PAYMENT_DAYS: z.coerce.number().int().min(0).max(120).default(14),
  /** DATEV: consultant and client number, debtor account, revenue accounts (SKR03 by default). */
  DATEV_CONSULTANT_NUMBER: z.coerce.number().int().min(1000).max(9999999).default(1001),
  DATEV_CLIENT_NUMBER: z.coerce.number().int().min(1).max(99999).default(1),
  DATEV_DEBTOR_ACCOUNT: z.coerce.number().int().min(10000).max(99999999).default(10000),
  DATEV_REVENUE_ACCOUNT_STANDARD: z.coerce.number().int().min(1).max(99999999).default(8400),
  /**
   * An invoice run for more payers (= invoices) than this is queued as a background job
   * (202 with the run's id); up to this many it is answered at once. The job issues in
   * transactions of at most this many invoices, so the screen can show progress.
   */
  INVOICE_RUN_SYNC_LIMIT: z.coerce.number().int().min(1).max(10000).default(50),
  DATEV_REVENUE_ACCOUNT_EXEMPT: z.coerce.number().int().min(1).max(99999999).default(8100),
  /** SMS provider's HTTP endpoint (POST JSON {from, to, text}); unset = SMS are captured. */
  SMS_URL: z.string().url().optional(),
  /** Bearer token for SMS_URL. */
  SMS_TOKEN: z.string().min(1).optional(),
  /** Sender name or number of SMS (alphanumeric senders: at most 11 characters). */
  SMS_FROM: z.string().min(1).max(16).default('Sprechstunde'),
  /**
   * Run the job workers (mail, SMS, reminders, holds) in this process. Default on, off in
   * tests (they run due jobs by hand with a controllable clock).
   */
  JOBS_WORKERS: bool.optional(),
  /**
   * Tries after the first failed send of a message before it counts as failed. Unset: as
   * many as fit MAIL_RETRY_HOURS (server/features/notifications/retry-policy.ts).
   */
  JOBS_RETRY_LIMIT: z.coerce.number().int().min(0).max(500).optional(),
  /** First retry delay in seconds; doubled on each retry (with jitter) up to MAIL_RETRY_DELAY_MAX_SECONDS. */
  JOBS_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * How long a message is retried before it counts as failed and is shown to staff: as long
   * as mail servers keep a message in their queue (Postfix: 5 days, most: 2 to 5).
   */
  MAIL_RETRY_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 7)
    .default(48),
  /** The ceiling of the retry delay: during a long outage a message is tried once an hour. */
  MAIL_RETRY_DELAY_MAX_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .default(3600),
  /**
   * While messages wait for a retry, how often the mail server is asked whether it answers
   * again (a connect and greeting); when it does, the waiting messages go out at once.
   */
  MAIL_PROBE_SECONDS: z.coerce.number().min(0.1).max(3600).default(2),
  /**
   * Further origins allowed as meetingBaseUrl of resendAppointmentInvites (comma-separated),
   * besides PUBLIC_URL's: links in invitations never point elsewhere.
   */
  MEETING_LINK_ORIGINS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  /** Where support requests (`POST /support/message`) are forwarded. */
  SUPPORT_EMAIL: z.string().email().default('support@sprechstunde.invalid'),
  /**
   * Shared secret of the incoming mailing-list webhook, given as `?secret=` in the URL entered
   * at Mailchimp (it signs nothing). Unset: the webhook refuses every call.
   */
  MAILCHIMP_WEBHOOK_SECRET: z.string().min(16).optional(),
  /** Marketing API key (`<key>-<dc>`); with MAILCHIMP_LIST_ID it switches the list sync on. */
  MAILCHIMP_API_KEY: z.string().min(8).max(200).optional(),
  /** The audience (list) id the sync fills. */
  MAILCHIMP_LIST_ID: z.string().min(1).max(64).optional(),
  /**
   * Base URL of the Marketing API, e.g. https://us19.api.mailchimp.com/3.0. Unset: derived
   * from the key's data-centre suffix. Tests point it at a local fake.
   */
  MAILCHIMP_API_URL: z.string().url().optional(),
  /** Status of members the sync adds (pending = Mailchimp sends its double opt-in mail). */
  MAILCHIMP_STATUS_IF_NEW: z.enum(['subscribed', 'pending']).default('subscribed'),
  /**
   * Key of the research export's pseudonyms (HMAC-SHA256 of the client id), at least 32
   * characters. Kept in the configuration, never in the database or the export, so the data
   * alone cannot be linked back. Unset outside production: a fixed development key (public,
   * features/research/key.ts); unset in production: the export answers 409.
   */
  RESEARCH_PSEUDONYM_KEY: z.string().min(32).optional(),
  /** Verifies user events of a separately run auth provider (POST /api/auth-provider/events). */
  AUTH_PRODUCT_WEBHOOK_SECRET: z.string().min(32).optional(),
  /**
   * Outgoing webhooks may reach loopback, private and link-local addresses (tests and local
   * development with a receiver on 127.0.0.1). Off: such targets are refused at every delivery.
   * The cloud metadata addresses are refused either way.
   */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool.default(false),
  /**
   * Coaches may connect calendar servers on loopback, private and link-local addresses (a
   * practice's own server in its network, tests). Off: such addresses are refused when a
   * connection is saved, so the server cannot be pointed at internal services. Cloud metadata
   * addresses are refused either way.
   */
  CALENDAR_ALLOW_PRIVATE_SERVERS: bool.default(false),
  /** How long one webhook delivery may take, connect to last byte read. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  /**
   * Seals the webhooks' signing secrets in the database (AES-256-GCM, key derived with
   * HKDF-SHA-256): at least 32 random characters, e.g. `openssl rand -base64 32`. Kept apart
   * from the database (environment or secret store). Default: DEV_WEBHOOK_SECRET_KEY.
   */
  WEBHOOK_SECRET_KEY: z.string().min(32).default(DEV_WEBHOOK_SECRET_KEY),
  /**
   * The key before the last change of WEBHOOK_SECRET_KEY: secrets it sealed still open, and
   * the server seals them again with the new key at its next start. Remove it after that.
   */
  WEBHOOK_SECRET_KEY_PREVIOUS: z.string().min(32).optional(),
  /** A webhook whose deliveries only failed for this long is switched off and the admins mailed. */
  WEBHOOK_DISABLE_AFTER_HOURS: z.coerce
    .number()
    .min(1)
    .max(30 * 24)
    .default(5 * 24),
  /** How long a provisional appointment holds its slot, in minutes (sets provisionalUntil). */
  PROVISIONAL_HOLD_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(14 * 24 * 60)
    .default(60),
  /**
   * Free slots start on this grid (minutes from local midnight, Europe/Berlin). A divisor of
   * 60, so the local grid is the UTC grid whatever the daylight-saving offset.
   */
  SLOT_STEP_MINUTES: z.coerce
    .number()
    .int()
    .refine((v) => v >= 5 && 60 % v === 0, 'a divisor of 60 from 5 to 60')
    .default(15),
  /** Clients see and book slots only this far ahead of now (hours). Staff have none. */
  CLIENT_BOOKING_NOTICE_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 60)
    .default(24),
  /** Clients cancel or reschedule only this long before the start (hours); staff may always. */
  CLIENT_CHANGE_NOTICE_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 60)
    .default(24),
  /** Federal state whose public holidays the calendar shows (date-holidays code, e.g. BE, BY, NW). */
  HOLIDAY_STATE: z
    .enum([
      'BW',
      'BY',
      'BE',
      'BB',
      'HB',
      'HH',
      'HE',
      'MV',
      'NI',
      'NW',
      'RP',
      'SL',
      'SN',
      'ST',
      'SH',
      'TH',
    ])
    .default('BE'),
  /**
   * The help page's four tutorial videos, the same variable the web build reads (src/lib/config.ts):
   * their origins may serve media (CSP media-src). Unset: no videos, no other media host.
   */
  VITE_HELP_VIDEO_URLS: z
    .string()
    .refine(
      (v) => v.split(',').every((u) => !u.trim() || URL.canParse(u.trim())),
      'comma-separated absolute URLs',
    )
    .optional(),
  /**
   * Origins (comma-separated) of a web app served from another origin that calls the product
   * API (CORS: the origin echoed, never `*`; preflights answered). Unset: same origin only, no
   * CORS headers. The sign-in provider has its own list, AUTH_ALLOWED_ORIGINS.
   */
  API_ALLOWED_ORIGINS: originList,
  /**
   * The web build's backend addresses, the same variables the build reads (src/lib/config.ts):
   * when the web app this server delivers calls an API or sign-in provider elsewhere, their
   * origins are allowed in the CSP's connect-src. Unset: this origin (`/api`, `/auth`).
   */
  VITE_API_BASE_URL: z.string().url().optional(),
  VITE_AUTH_BASE_URL: z.string().url().optional(),
  /**
   * The tag-manager container (`GTM-…`) of the client sign-up pages; it runs only there, only
   * on PUBLIC_URL's host and only after the visitor consents. Unset: never.
   */
  TAG_MANAGER_ID: z
    .string()
    .regex(/^GTM-[A-Z0-9]{4,12}$/, 'a container id such as GTM-ABC123')
    .optional(),
  /** The container's script (its origin is what the sign-up pages' CSP then allows). */
  TAG_MANAGER_SCRIPT_URL: z
    .string()
    .url()
    .refine((u) => /^https?:$/.test(new URL(u).protocol), 'an http(s) URL')
    .default('https://www.googletagmanager.com/gtm.js'),
  /** Jitsi deployment of the video meetings (IFrame API and rooms). */
  JITSI_DOMAIN: z
    .string()
    .regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/, 'a host name, optionally with :port')
    .default('meet.jit.si'),
  /** The Jitsi IFrame API script; default https://JITSI_DOMAIN/external_api.js. */
  JITSI_SCRIPT_URL: z.string().url().optional(),
  /**
   * Jitsi JWT authentication (prosody token auth): app id (`iss`) and shared secret (HS256).
   * Both or neither; unset means rooms without tokens (still hidden, random names).
   */
  JITSI_APP_ID: z.string().min(1).max(200).optional(),
  JITSI_APP_SECRET: z.string().min(16).optional(),
  /** `aud` of Jitsi JWTs (prosody's asap_accepted_audiences; "jitsi" by default). */
  JITSI_JWT_AUDIENCE: z.string().min(1).default('jitsi'),
  /** Both sides may enter the video room this many minutes before the start. */
  MEETING_JOIN_EARLY_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(120)
    .default(DEFAULT_JOIN_MINUTES.early),
  /** …and until this many minutes after the end (JWT exp). */
  MEETING_JOIN_LATE_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(240)
    .default(DEFAULT_JOIN_MINUTES.late),
  /**
   * HTTP timeouts (both servers: the app and the stand-alone auth provider). A client that has
   * not sent its headers within HTTP_HEADERS_TIMEOUT_MS, or its whole request within
   * HTTP_REQUEST_TIMEOUT_MS, is answered 408 and cut, so slow senders cannot hold connections
   * open. An idle kept-alive connection closes after HTTP_KEEP_ALIVE_TIMEOUT_MS (above a load
   * balancer's usual 60 s idle timeout, so the balancer closes first); a socket silent for
   * HTTP_IDLE_TIMEOUT_MS, even during a request, is closed without an answer.
   */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(72_000),
  HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  /** Largest request body accepted (bytes); a larger one is answered 413. */
  HTTP_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(1024 * 1024),
  /** How long `GET /readyz` waits for the database before it answers 503. */
  READINESS_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2_000),
  /**
   * On SIGTERM/SIGINT the server first drains: `/readyz` answers 503 `draining` and every answer
   * carries `Connection: close`, while requests are still served, for this long; then it stops
   * listening and closes. Set it to the load balancer's health-check interval times its
   * unhealthy threshold, so the balancer has stopped sending before the port closes. Unset:
   * 10 s in production, 200 ms elsewhere (a developer's Ctrl-C stays quick).
   */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(300_000).optional(),
  /**
   * Bearer token of `GET /metrics` (Prometheus), at least 32 characters. Unset: /metrics
   * answers 404, as if it did not exist.
   */
  METRICS_TOKEN: z.string().min(32).optional(),
  /**
   * Proxies in front of the API whose X-Forwarded-For is believed, so rate limits see the
   * caller's address: `true` (any) or comma-separated addresses/CIDRs of the proxies.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v): boolean | string[] => {
      if (v === undefined || v === '' || v === 'false') return false;
      if (v === 'true') return true;
      return v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    }),
});

/**
 * Addresses derived from the port: in development `PORT=3100` alone moves the public URL, the
 * issuer and (through PUBLIC_URL) the allowed origins to 3100. Elsewhere the defaults stay
 * fixed, so instances behind a proxy (whose own port is not the public one) agree.
 */
const withAddresses = schema.transform((c) => {
  const port = c.NODE_ENV === 'development' && c.PORT !== 0 ? c.PORT : 3000;
  const PUBLIC_URL = c.PUBLIC_URL ?? `http://localhost:${port}`;
  const AUTH_ISSUER =
    c.AUTH_ISSUER ??
    (c.NODE_ENV === 'development'
      ? `${PUBLIC_URL.replace(/\/+$/, '')}/auth`
      : 'http://localhost:3000/auth');
  const SHUTDOWN_DRAIN_MS = c.SHUTDOWN_DRAIN_MS ?? (c.NODE_ENV === 'production' ? 10_000 : 200);
  return { ...c, PUBLIC_URL, AUTH_ISSUER, SHUTDOWN_DRAIN_MS };
});

export type Config = z.infer<typeof withAddresses>;

/**
 * Settings that hold a development secret published in this repository: a production start
 * with any of them is refused (server/main.ts, the auth provider's main.ts), naming them.
 * The auth provider's signing keys and AUTH_ENCRYPTION_KEY have no development value: each
 * database generates its own.
 */
export function developmentSecrets(
  config: Pick<Config, 'WEBHOOK_SECRET_KEY' | 'RESEARCH_PSEUDONYM_KEY'>,
): string[] {
  const found: string[] = [];
  if (config.WEBHOOK_SECRET_KEY === DEV_WEBHOOK_SECRET_KEY) found.push('WEBHOOK_SECRET_KEY');
  if (config.RESEARCH_PSEUDONYM_KEY === DEV_RESEARCH_PSEUDONYM_KEY)
    found.push('RESEARCH_PSEUDONYM_KEY');
  return found;
}

/** Throws one error naming every development secret when NODE_ENV is production. */
export function assertProductionSecrets(config: Config): void {
  if (config.NODE_ENV !== 'production') return;
  const found = developmentSecrets(config);
  if (found.length === 0) return;
  throw new Error(
    `Refusing to start in production with development secrets: ${found.join(', ')}. ` +
      'They are published in the source code; set values of your own ' +
      '(at least 32 random characters each, e.g. `openssl rand -base64 32`).',
  );
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = withAddresses.safeParse(env);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${fields.join('\n')}`);
  }
  if (parsed.data.HTTP_HEADERS_TIMEOUT_MS > parsed.data.HTTP_REQUEST_TIMEOUT_MS) {
    // Node refuses a headers timeout longer than the whole request's.
    throw new Error(
      'Invalid configuration:\nHTTP_HEADERS_TIMEOUT_MS: at most HTTP_REQUEST_TIMEOUT_MS',
    );
  }
  if (!parsed.data.JITSI_APP_ID !== !parsed.data.JITSI_APP_SECRET) {
    throw new Error(
      'Invalid configuration:\nJITSI_APP_ID and JITSI_APP_SECRET: set both or neither',
    );
  }
  return parsed.data;
}

/**
 * The configuration of a start command (server/main.ts, the auth provider's main.ts): invalid
 * settings, or development secrets in production, end the process before anything is opened,
 * with the one message that names them (no stack trace to read past).
 */
export function startupConfig(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    const config = loadConfig(env);
    assertProductionSecrets(config);
    return config;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}
