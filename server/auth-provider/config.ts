import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

/**
 * Switches that shape the flows (protocol §3.1), read once from the environment. Defaults
 * suit Sprechstunde: sign-up on, e-mail required and verified, passcode login, a password
 * allowed but not required (the passcode is always there), no usernames.
 */
const schema = z.object({
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
  AUTH_FLOW_TTL_SECONDS: z.coerce.number().int().min(60).default(24 * 60 * 60),
  AUTH_SESSION_LIFETIME_SECONDS: z.coerce.number().int().min(60).default(12 * 60 * 60),
  AUTH_SESSION_LIMIT: z.coerce.number().int().min(1).max(100).default(5),
  /**
   * true: the session JWT travels in `X-Auth-Token` (the SDK keeps it and sends it as a
   * Bearer header, which is what the product API reads); false: an HttpOnly cookie.
   */
  AUTH_SESSION_TOKEN_HEADER: bool.default(true),
  AUTH_COOKIE_NAME: z.string().regex(/^[\w-]+$/).default('hanko'),
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
        v.split(',').every((o) => o.trim() === '' || (URL.canParse(o.trim()) && new URL(o.trim()).origin !== 'null')),
      'a comma-separated list of origins such as https://app.example.org',
    ),
  /** Include internal error causes in flow errors (never in production). */
  AUTH_DEBUG: bool.default(false),
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
