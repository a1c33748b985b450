import type { Config } from '../config';
import type { Db, Tx } from '../db/client';
import type { RateLimiters } from '../http/rate-limit';
import { loadAuthConfig, type AuthConfig } from './config';
import { createFlowEngine } from './flow/engine';
import { createDbFlowStore } from './flow/store';
import { loginFlow } from './flows/login';
import { profileFlow } from './flows/profile';
import { registrationFlow } from './flows/registration';
import type { AuthEnv, MailOutbox } from './flows/shared';
import { loadKeyStore } from './keys';
import { loadSecretBox } from './secret-box';
import { createSessionService } from './sessions';
import { createSaml } from './saml';
import { createThirdParty } from './thirdparty';
import { tokenExchangeFlow } from './flows/token-exchange';
import { createUserEvents, type AuthUserEventHandler } from './user-events';
import { relyingParty } from './webauthn';

export interface AuthProviderOptions {
  db: Db;
  config: Config;
  /** Flow switches; read from the environment when absent. */
  auth?: AuthConfig;
  rateLimits: RateLimiters;
  /** Where sign-in mails go: the job queue's outbox (stored, sent and retried by workers). */
  mailer: MailOutbox;
  now?: () => Date;
  /**
   * The product's receiver of created and deleted users and changed primary e-mails (the
   * default set-up, in-process); the provider on its own posts them to
   * AUTH_PRODUCT_WEBHOOK_URL instead.
   */
  onUserEvent?: AuthUserEventHandler;
}

/**
 * The authentication provider: flows, sessions and keys on the given database. Mount its
 * HTTP surface with `authProviderPlugin`; the product verifies tokens with `jwks()` and
 * `sessions.isActive` in-process.
 */
export async function createAuthProvider(options: AuthProviderOptions) {
  const { db, config } = options;
  const auth = options.auth ?? loadAuthConfig();
  let logError: (error: unknown) => void = () => {};
  const keys = await loadKeyStore(db, {
    tokenLifetimeSeconds: auth.AUTH_SESSION_LIFETIME_SECONDS,
    rotationDays: auth.AUTH_KEY_ROTATION_DAYS,
    refreshMs: auth.AUTH_KEY_REFRESH_SECONDS * 1000,
    ...(options.now ? { now: options.now } : {}),
    onError: (error) => logError(error),
  });
  const secrets = await loadSecretBox(db, auth.AUTH_ENCRYPTION_KEY);
  const rp = relyingParty(auth, config.PUBLIC_URL);
  const sessions = createSessionService({
    db,
    keys,
    auth,
    issuer: config.AUTH_ISSUER,
    audience: config.AUTH_AUDIENCE,
  });
  const saml = createSaml({
    auth,
    secrets,
    publicUrl: config.PUBLIC_URL,
    ...(options.now ? { now: options.now } : {}),
  });
  const events = createUserEvents({
    onUserEvent: options.onUserEvent,
    webhook:
      auth.AUTH_PRODUCT_WEBHOOK_URL && auth.AUTH_PRODUCT_WEBHOOK_SECRET
        ? { url: auth.AUTH_PRODUCT_WEBHOOK_URL, secret: auth.AUTH_PRODUCT_WEBHOOK_SECRET }
        : undefined,
  });
  const thirdparty = createThirdParty({
    auth,
    secrets,
    publicUrl: config.PUBLIC_URL,
    ...(options.now ? { now: options.now } : {}),
  });
  const engine = createFlowEngine<AuthEnv, Tx>({
    flows: {
      login: loginFlow(auth),
      registration: registrationFlow(auth),
      profile: profileFlow(auth),
      // Only with SAML: otherwise /token_exchange is refused (403).
      ...(saml.enabled ? { token_exchange: tokenExchangeFlow(auth) } : {}),
    },
    store: createDbFlowStore(db),
    env: (tx) => ({
      tx,
      auth,
      publicUrl: config.PUBLIC_URL,
      sessions,
      rateLimits: options.rateLimits,
      mailer: options.mailer,
      rp,
      secrets,
      thirdparty,
      events,
      saml,
    }),
    ...(options.now ? { now: options.now } : {}),
    debug: auth.AUTH_DEBUG && config.NODE_ENV !== 'production',
    onError: (error) => logError(error),
  });
  return {
    db,
    auth,
    keys,
    sessions,
    engine,
    rp,
    thirdparty,
    saml,
    /** Created/deleted users and changed primary e-mails, to the product (after commits). */
    events,
    /** Unexpected errors outside flows (third-party callback). */
    logError: (error: unknown) => logError(error),
    rateLimits: options.rateLimits,
    jwks: () => keys.jwks(),
    /** The app's public origin (the default CORS origin). */
    publicUrl: config.PUBLIC_URL,
    /** The plugin routes unexpected flow errors into the app's log. */
    setErrorLogger(log: (error: unknown) => void) {
      logError = log;
      events.setErrorLogger(log);
    },
  };
}

export type AuthProvider = Awaited<ReturnType<typeof createAuthProvider>>;
