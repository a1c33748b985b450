import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const acquire = z.enum(['always', 'conditional', 'never']);

/**
 * Switches that shape the flows (protocol §3.1), read once from the environment. Defaults
 * suit Sprechstunde: sign-up on, e-mail required and verified, passcode login, a password
 * allowed but not required (the passcode is always there), no usernames.
 */
const schema = z
  .object({
    AUTH_SIGNUP_ENABLED: bool.default(true),
    AUTH_PASSWORD_ENABLED: bool.default(true),
    /** Password creation may be skipped (the person signs in by passcode). */
    AUTH_PASSWORD_OPTIONAL: bool.default(true),
    AUTH_PASSWORD_MIN_LENGTH: z.coerce.number().int().min(6).max(72).default(8),
    AUTH_PASSWORD_RECOVERY: bool.default(true),
    /** Sign-in with a one-time code sent by e-mail. */
    AUTH_PASSCODE_LOGIN: bool.default(true),
    AUTH_PASSCODE_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
    AUTH_PASSCODE_MAX_TRIES: z.coerce.number().int().min(1).max(10).default(3),
    AUTH_EMAIL_REQUIRE_VERIFICATION: bool.default(true),
    /**
     * An account may exist without an e-mail address (registration by username or passkey):
     * the address is then asked for in onboarding (`onboarding_email`), which may be skipped.
     */
    AUTH_EMAIL_OPTIONAL: bool.default(false),
    /**
     * Registration asks for the address on its first screen; false: it is asked for in
     * onboarding after the credentials (registration by username or by passkey alone).
     */
    AUTH_EMAIL_ACQUIRE_ON_REGISTRATION: bool.default(true),
    /** A sign-in of an account without an address asks for one (`onboarding_email`). */
    AUTH_EMAIL_ACQUIRE_ON_LOGIN: bool.default(true),
    AUTH_EMAIL_MAX_LENGTH: z.coerce.number().int().min(6).max(254).default(120),
    /** At most this many addresses per user (profile `email_create`, `POST /emails`: 409). */
    AUTH_EMAIL_LIMIT: z.coerce.number().int().min(1).max(50).default(5),
    /** People may delete their own account (profile `account_delete`, `DELETE /user`). */
    AUTH_ACCOUNT_DELETION: bool.default(true),
    AUTH_USERNAME: z.enum(['off', 'optional', 'required']).default('off'),
    AUTH_USERNAME_MIN_LENGTH: z.coerce.number().int().min(1).max(32).default(3),
    AUTH_USERNAME_MAX_LENGTH: z.coerce.number().int().min(1).max(32).default(32),
    /** Say "unknown e-mail" / "e-mail taken" (off: no user enumeration, protocol Q7). */
    AUTH_SHOW_ACCOUNT_EXISTENCE_HINTS: bool.default(false),
    /**
     * Hanko's `privacy.only_show_actual_login_methods`: after the identifier, offer only the
     * methods the account has (a method chooser only when there are several); unknown
     * addresses go to the one-time code like accounts without a password.
     */
    AUTH_ONLY_SHOW_ACTUAL_LOGIN_METHODS: bool.default(true),
    AUTH_FLOW_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .default(24 * 60 * 60),
    AUTH_SESSION_LIFETIME_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .default(12 * 60 * 60),
    /**
     * How long the browser keeps the session: `persistent` for the session lifetime,
     * `session` until the browser closes, `prompt` lets the person choose ("Angemeldet
     * bleiben", the `remember_me` action): checked, the lifetime; unchecked, until it closes.
     */
    AUTH_SESSION_RETENTION: z.enum(['persistent', 'session', 'prompt']).default('persistent'),
    AUTH_SESSION_LIMIT: z.coerce.number().int().min(1).max(100).default(5),
    /**
     * A new signing key pair after this many days (0: only by `npm run auth:rotate-key`); old
     * public keys stay in the JWKS until the last token they signed has expired.
     */
    AUTH_KEY_ROTATION_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
    /**
     * How often each instance re-reads the signing keys from the database. A new key is
     * published twice this long before it signs, so every instance trusts it before tokens
     * signed with it arrive. The same on every instance (and for `npm run auth:rotate-key`).
     */
    AUTH_KEY_REFRESH_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    /**
     * true: the session JWT travels in `X-Auth-Token` (the SDK keeps it and sends it as a
     * Bearer header, which is what the product API reads); false: an HttpOnly cookie.
     */
    AUTH_SESSION_TOKEN_HEADER: bool.default(true),
    AUTH_COOKIE_NAME: z
      .string()
      .regex(/^[\w-]+$/)
      .default('hanko'),
    AUTH_COOKIE_SECURE: bool.default(true),
    AUTH_COOKIE_SAME_SITE: z.enum(['strict', 'lax', 'none']).default('strict'),
    AUTH_COOKIE_DOMAIN: z.string().optional(),
    /** How long the product API trusts a positive session look-up (ms); 0 = every request. */
    AUTH_SESSION_CHECK_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
    /**
     * Origins (comma-separated) whose pages may call the provider with credentials (CORS);
     * unset: the app's own PUBLIC_URL.
     */
    AUTH_ALLOWED_ORIGINS: z
      .string()
      .optional()
      .refine(
        (v) =>
          v === undefined ||
          v
            .split(',')
            .every(
              (o) =>
                o.trim() === '' || (URL.canParse(o.trim()) && new URL(o.trim()).origin !== 'null'),
            ),
        'a comma-separated list of origins such as https://app.example.org',
      ),
    /** Passkeys: sign-in with a WebAuthn credential (only offered to browsers that can). */
    AUTH_PASSKEYS_ENABLED: bool.default(true),
    /** Passkey creation may be skipped. */
    AUTH_PASSKEY_OPTIONAL: bool.default(true),
    /** At most this many WebAuthn credentials per user (passkeys and security keys). */
    AUTH_PASSKEY_LIMIT: z.coerce.number().int().min(1).max(50).default(10),
    /** When a credential is asked for after registration / login (protocol §3.2, §3.3). */
    AUTH_PASSKEY_ACQUIRE_ON_REGISTRATION: acquire.default('always'),
    AUTH_PASSKEY_ACQUIRE_ON_LOGIN: acquire.default('always'),
    /**
     * After someone skipped the passkey offer, sign-ins do not offer it again for this many
     * days (0: never again; passkeys can still be created in the profile). Only where passkeys
     * are optional.
     */
    AUTH_PASSKEY_ONBOARDING_SNOOZE_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
    AUTH_PASSWORD_ACQUIRE_ON_REGISTRATION: acquire.default('always'),
    AUTH_PASSWORD_ACQUIRE_ON_LOGIN: acquire.default('never'),
    AUTH_PASSKEY_USER_VERIFICATION: z
      .enum(['required', 'preferred', 'discouraged'])
      .default('preferred'),
    /** WebAuthn relying party id; unset: the host name of PUBLIC_URL (localhost by default). */
    AUTH_WEBAUTHN_RP_ID: z
      .string()
      .regex(/^[a-z0-9.-]+$/i)
      .optional(),
    AUTH_WEBAUTHN_RP_NAME: z.string().min(1).max(64).default('Sprechstunde'),
    /** Origins (comma-separated) WebAuthn responses may come from; unset: PUBLIC_URL's origin. */
    AUTH_WEBAUTHN_ORIGINS: z
      .string()
      .optional()
      .refine(
        (v) => v === undefined || v.split(',').every((o) => URL.canParse(o.trim())),
        'a comma-separated list of origins such as https://app.example.org',
      ),
    AUTH_WEBAUTHN_TIMEOUT_MS: z.coerce.number().int().min(10_000).max(600_000).default(60_000),
    /** Second factor: off, optional (offered), required (everyone sets one up). */
    AUTH_MFA: z.enum(['off', 'optional', 'required']).default('optional'),
    /** Offer MFA set-up right after registration / after a login without MFA (optional mode). */
    AUTH_MFA_ACQUIRE_ON_REGISTRATION: bool.default(false),
    AUTH_MFA_ACQUIRE_ON_LOGIN: bool.default(false),
    /** Authenticator apps (TOTP, RFC 6238). */
    AUTH_MFA_TOTP: bool.default(true),
    /** Security keys as a second factor. */
    AUTH_MFA_SECURITY_KEYS: bool.default(true),
    AUTH_MFA_SECURITY_KEY_ATTACHMENT: z
      .enum(['platform', 'cross-platform', 'any'])
      .default('cross-platform'),
    AUTH_MFA_SECURITY_KEY_LIMIT: z.coerce.number().int().min(1).max(50).default(10),
    /** Issuer shown in authenticator apps. */
    AUTH_TOTP_ISSUER: z.string().min(1).max(64).default('Sprechstunde'),
    /** Trusted devices skip the second factor: ask (prompt), always, never. */
    AUTH_DEVICE_TRUST: z.enum(['prompt', 'always', 'never']).default('prompt'),
    AUTH_DEVICE_TRUST_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    AUTH_DEVICE_TRUST_COOKIE: z
      .string()
      .regex(/^[\w-]+$/)
      .default('hanko-device-token'),
    /**
     * 32 bytes, base64, that encrypt authenticator-app secrets; unset: a key generated at the
     * first start and kept in the database.
     */
    AUTH_ENCRYPTION_KEY: z
      .string()
      .optional()
      .refine(
        (v) => v === undefined || Buffer.from(v, 'base64').length === 32,
        '32 bytes, base64-encoded',
      ),
    /**
     * Third-party sign-in providers (OAuth 2.0 / OpenID Connect), a JSON array of
     * {id, name, issuer | authorization_url + token_url + userinfo_url/jwks_url, client_id,
     * client_secret, scopes?, token_auth?}; unset: none (server/auth-provider/thirdparty.ts).
     */
    AUTH_THIRDPARTY_PROVIDERS: z.string().optional(),
    /** Where sign-ins may return to (comma-separated; `*` at the end: any URL below); unset: PUBLIC_URL/*. */
    AUTH_THIRDPARTY_REDIRECT_URLS: z.string().optional(),
    /** The callback registered at the providers; unset: PUBLIC_URL/auth/thirdparty/callback. */
    AUTH_THIRDPARTY_CALLBACK_URL: z.url().optional(),
    /** Where a callback without a usable state goes (with ?error=…); unset: PUBLIC_URL/login. */
    AUTH_THIRDPARTY_ERROR_REDIRECT_URL: z.url().optional(),
    /** Include internal error causes in flow errors (never in production). */
    AUTH_DEBUG: bool.default(false),
    /**
     * The provider on its own (`npm run start:auth`): where created and deleted users and
     * changed primary e-mails are posted (the product's /api/auth-provider/events), signed
     * with HMAC-SHA256 over the body with AUTH_PRODUCT_WEBHOOK_SECRET. Unset: no webhook (in the
     * default set-up the product hears of them in-process).
     */
    AUTH_PRODUCT_WEBHOOK_URL: z.url().optional(),
    /**
     * SAML 2.0 identity providers, a JSON array of {domains, name, entry_point, idp_cert,
     * idp_issuer?} (server/auth-provider/saml.ts); unset: SAML off.
     */
    AUTH_SAML_PROVIDERS: z.string().optional(),
    AUTH_PRODUCT_WEBHOOK_SECRET: z.string().min(32).optional(),
  })
  .refine((c) => !c.AUTH_PRODUCT_WEBHOOK_URL || c.AUTH_PRODUCT_WEBHOOK_SECRET, {
    path: ['AUTH_PRODUCT_WEBHOOK_SECRET'],
    message: 'required with AUTH_PRODUCT_WEBHOOK_URL',
  });

export type AuthConfig = z.infer<typeof schema>;

export function loadAuthConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid authentication configuration:\n${fields.join('\n')}`);
  }
  return parsed.data;
}

/** bcrypt reads at most 72 bytes. */
export const PASSWORD_MAX_BYTES = 72;
