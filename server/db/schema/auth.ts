import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, inList, ownedBy, stampedNow, ts, updatedAt, uuidId } from './columns';

// The authentication provider's own tables (server/auth-provider). They know nothing of the
// product's tables: the product links its `users` row to `auth_users.id` through the token
// subject (`users.auth_subject`), so the provider can also run as its own service.

/**
 * User metadata as Hanko defines it, each a JSON object or null: `public_metadata` (written by
 * the operator, shown to the user), `private_metadata` (operator only, never shown to the
 * user), `unsafe_metadata` (the user patches it in the profile flow). At most
 * METADATA_MAX_CHARS (server/auth-provider/metadata.ts) of compact JSON each.
 */
export type UserMetadataObject = Record<string, unknown>;

export const authUsers = pgTable(
  'auth_users',
  {
    id: uuidId(),
    publicMetadata: jsonb('public_metadata').$type<UserMetadataObject>(),
    privateMetadata: jsonb('private_metadata').$type<UserMetadataObject>(),
    unsafeMetadata: jsonb('unsafe_metadata').$type<UserMetadataObject>(),
    /** When the person last skipped the passkey offer after a sign-in (null: never). */
    passkeyDeclinedAt: ts('passkey_declined_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('auth_users_public_metadata_check', sql`jsonb_typeof(${t.publicMetadata}) = 'object'`),
    check('auth_users_private_metadata_check', sql`jsonb_typeof(${t.privateMetadata}) = 'object'`),
    check('auth_users_unsafe_metadata_check', sql`jsonb_typeof(${t.unsafeMetadata}) = 'object'`),
  ],
);

/** A user's e-mail addresses; an address belongs to at most one user (case-insensitive). */
export const authEmails = pgTable(
  'auth_emails',
  {
    id: uuidId(),
    userId: ownedBy('user_id', () => authUsers.id),
    /** Stored lower-cased and trimmed. */
    address: text('address').notNull(),
    isPrimary: boolean('is_primary').notNull().default(false),
    verified: boolean('verified').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('auth_emails_address_key').on(t.address),
    index('auth_emails_user_idx').on(t.userId),
    uniqueIndex('auth_emails_one_primary_key')
      .on(t.userId)
      .where(sql`${t.isPrimary}`),
    check('auth_emails_address_lower_check', sql`${t.address} = lower(${t.address})`),
  ],
);

/** Usernames (only when usernames are configured); lower-cased, unique. */
export const authUsernames = pgTable(
  'auth_usernames',
  {
    id: uuidId(),
    userId: ownedBy('user_id', () => authUsers.id),
    username: text('username').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('auth_usernames_username_key').on(t.username),
    uniqueIndex('auth_usernames_user_key').on(t.userId),
  ],
);

/** One bcrypt hash per user. */
export const authPasswordCredentials = pgTable(
  'auth_password_credentials',
  {
    id: uuidId(),
    userId: ownedBy('user_id', () => authUsers.id),
    hash: text('hash').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('auth_password_credentials_user_key').on(t.userId)],
);

/**
 * One-time e-mail codes: the code is stored only as a hash; it dies after `expires_at` or
 * after the maximum number of wrong tries. `user_id` is null for codes sent during a
 * registration (the user does not exist yet).
 */
export const authPasscodes = pgTable(
  'auth_passcodes',
  {
    id: uuidId(),
    flowId: uuid('flow_id'),
    userId: uuid('user_id').references(() => authUsers.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    /**
     * The code, sealed with the provider's secret box, for as long as it lives: another
     * request for the same address is answered with this code (mailed again) instead of a new
     * one, so strangers asking for codes cannot use up the address's allowance.
     */
    codeSealed: text('code_sealed'),
    /** Wrong tries in this row's flow (each flow sharing a code has its own row). */
    tryCount: integer('try_count').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    /** Earliest moment a new code may be sent to the same address. */
    resendAfter: ts('resend_after').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('auth_passcodes_flow_idx').on(t.flowId),
    index('auth_passcodes_expires_idx').on(t.expiresAt),
    index('auth_passcodes_email_idx').on(t.email, t.expiresAt),
    check('auth_passcodes_try_count_check', sql`${t.tryCount} >= 0`),
  ],
);

export const AUTH_FLOW_NAMES = ['login', 'registration', 'profile', 'token_exchange'] as const;

/**
 * A running flow (login, registration…). `stash` holds the flow data and the queue of
 * scheduled states, `history` the entries `back` returns to. `version` counts the stored
 * steps; every action locks the row and bumps it.
 */
export const authFlows = pgTable(
  'auth_flows',
  {
    id: uuidId(),
    name: text('name', { enum: AUTH_FLOW_NAMES }).notNull(),
    state: text('state').notNull(),
    stash: jsonb('stash').notNull(),
    history: jsonb('history')
      .notNull()
      .default(sql`'[]'::jsonb`),
    csrfToken: text('csrf_token').notNull(),
    version: integer('version').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('auth_flows_expires_idx').on(t.expiresAt),
    check('auth_flows_name_check', sql`${t.name} IN ${inList(AUTH_FLOW_NAMES)}`),
  ],
);

/**
 * One-time tokens already exchanged (the ids of SAML `hanko_token`s): a token whose id is
 * here is refused. A row is needed only while the token could still be used, so rows past
 * `expires_at` are deleted.
 */
export const authUsedTokens = pgTable(
  'auth_used_tokens',
  {
    id: text('id').primaryKey(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('auth_used_tokens_expires_idx').on(t.expiresAt)],
);

/** Server-side sessions: a session JWT is valid only while its row exists. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuidId(),
    userId: ownedBy('user_id', () => authUsers.id),
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
    lastUsed: stampedNow('last_used'),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    index('auth_sessions_user_idx').on(t.userId, t.createdAt),
    index('auth_sessions_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Key pairs that sign session JWTs (ES256), as JWKs. The newest signs; older ones stay in
 * the JWKS so their tokens verify until they expire.
 */
export const authSigningKeys = pgTable('auth_signing_keys', {
  kid: text('kid').primaryKey(),
  algorithm: text('algorithm').notNull(),
  publicJwk: jsonb('public_jwk').notNull(),
  privateJwk: jsonb('private_jwk').notNull(),
  createdAt: createdAt(),
});

/**
 * Passkeys and security keys (WebAuthn). `id` is the credential id (base64url), unique
 * across users; `public_key` the COSE key (base64url). `mfa_only` marks security keys, which
 * count only as a second factor. `sign_count` is the authenticator's counter (0 when the
 * authenticator does not count).
 */
export const authWebauthnCredentials = pgTable(
  'auth_webauthn_credentials',
  {
    id: text('id').primaryKey(),
    userId: ownedBy('user_id', () => authUsers.id),
    name: text('name'),
    publicKey: text('public_key').notNull(),
    attestationType: text('attestation_type').notNull(),
    aaguid: text('aaguid').notNull(),
    signCount: bigint('sign_count', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    backupEligible: boolean('backup_eligible').notNull().default(false),
    backupState: boolean('backup_state').notNull().default(false),
    mfaOnly: boolean('mfa_only').notNull().default(false),
    lastUsedAt: ts('last_used_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('auth_webauthn_credentials_user_idx').on(t.userId),
    check('auth_webauthn_credentials_sign_count_check', sql`${t.signCount} >= 0`),
    check(
      'auth_webauthn_credentials_name_check',
      sql`${t.name} IS NULL OR char_length(${t.name}) BETWEEN 3 AND 32`,
    ),
  ],
);

/**
 * Authenticator-app (TOTP) secrets, one per user, encrypted (AES-256-GCM, see
 * server/auth-provider/secret-box.ts). `last_used_step` is the newest 30-second step a code
 * was accepted for, so a code cannot be used twice.
 */
export const authOtpSecrets = pgTable(
  'auth_otp_secrets',
  {
    id: uuidId(),
    userId: ownedBy('user_id', () => authUsers.id),
    secretEncrypted: text('secret_encrypted').notNull(),
    lastUsedStep: bigint('last_used_step', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('auth_otp_secrets_user_key').on(t.userId)],
);

/**
 * Trusted devices: the `hanko-device-token` cookie carries `user:token` pairs; only the
 * SHA-256 of each token is stored. A trusted device skips the second factor until
 * `expires_at`.
 */
export const authDeviceTokens = pgTable(
  'auth_device_tokens',
  {
    id: uuidId(),
    userId: ownedBy('user_id', () => authUsers.id),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('auth_device_tokens_token_key').on(t.tokenHash),
    index('auth_device_tokens_user_idx').on(t.userId),
  ],
);

/** The provider's own symmetric keys (the OTP-secret key when AUTH_ENCRYPTION_KEY is unset). */
export const authSecretKeys = pgTable('auth_secret_keys', {
  name: text('name').primaryKey(),
  key: text('key').notNull(),
  createdAt: createdAt(),
});

/**
 * Accounts at third-party sign-in providers (OAuth 2.0 / OpenID Connect) linked to a user:
 * `provider_user_id` is the provider's `sub`. One provider account belongs to one user.
 */
export const authIdentities = pgTable(
  'auth_identities',
  {
    id: uuidId(),
    userId: ownedBy('user_id', () => authUsers.id),
    provider: text('provider').notNull(),
    providerUserId: text('provider_user_id').notNull(),
    /** The address the provider vouched for when the account was linked. */
    email: text('email'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('auth_identities_provider_user_key').on(t.provider, t.providerUserId),
    index('auth_identities_user_idx').on(t.userId),
  ],
);
