import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import {
  authEmails,
  authIdentities,
  authPasswordCredentials,
  authUsernames,
  authUsers,
} from '../db/schema/index';
import type { AuthConfig } from './config';
import type { SessionEmail } from './sessions';
import { metadataOfRow, userFacingMetadata } from './metadata';
import { parseProviders } from './thirdparty';
import { otpSecretOf } from './totp';
import { credentialsOf, wireCredential } from './webauthn';

type Conn = Tx | Db;

export async function findUserByEmail(tx: Conn, address: string) {
  const [row] = await tx
    .select({ userId: authEmails.userId, emailId: authEmails.id, verified: authEmails.verified })
    .from(authEmails)
    .where(eq(authEmails.address, address.toLowerCase()));
  return row ?? null;
}

/** Drops another account's unconfirmed claim on an address its owner has just proven. */
export async function releaseUnconfirmedAddress(tx: Conn, address: string) {
  await tx
    .delete(authEmails)
    .where(and(eq(authEmails.address, address.toLowerCase()), eq(authEmails.verified, false)));
}

export async function findUserByUsername(tx: Conn, username: string) {
  const [row] = await tx
    .select({ userId: authUsernames.userId })
    .from(authUsernames)
    .where(eq(authUsernames.username, username.toLowerCase()));
  return row ?? null;
}

export async function userExists(tx: Conn, userId: string) {
  const [row] = await tx
    .select({ id: authUsers.id })
    .from(authUsers)
    .where(eq(authUsers.id, userId));
  return !!row;
}

export async function createUser(
  tx: Tx,
  input: {
    id: string;
    email: string | null;
    emailVerified: boolean;
    username: string | null;
    passwordHash: string | null;
    /** The passkey offer was skipped during the registration. */
    passkeyDeclined?: boolean;
    now: Date;
  },
) {
  const at = input.now.toISOString();
  await tx.insert(authUsers).values({
    id: input.id,
    passkeyDeclinedAt: input.passkeyDeclined ? at : null,
    createdAt: at,
    updatedAt: at,
  });
  if (input.email) {
    await tx.insert(authEmails).values({
      userId: input.id,
      address: input.email.toLowerCase(),
      isPrimary: true,
      verified: input.emailVerified,
      createdAt: at,
      updatedAt: at,
    });
  }
  if (input.username) {
    await tx.insert(authUsernames).values({ userId: input.id, username: input.username });
  }
  if (input.passwordHash) {
    await tx.insert(authPasswordCredentials).values({ userId: input.id, hash: input.passwordHash });
  }
}

export async function markEmailVerified(tx: Conn, userId: string, address: string, now: Date) {
  await tx
    .update(authEmails)
    .set({ verified: true, updatedAt: now.toISOString() })
    .where(and(eq(authEmails.userId, userId), eq(authEmails.address, address.toLowerCase())));
}

/** The person skipped the passkey offer (login flow); the sign-in snooze counts from now. */
export async function recordPasskeyDeclined(tx: Conn, userId: string, now: Date) {
  await tx
    .update(authUsers)
    .set({ passkeyDeclinedAt: now.toISOString() })
    .where(eq(authUsers.id, userId));
}

/** When the person last skipped the passkey offer, or null. */
export async function passkeyDeclinedAt(tx: Conn, userId: string): Promise<Date | null> {
  const [row] = await tx
    .select({ at: authUsers.passkeyDeclinedAt })
    .from(authUsers)
    .where(eq(authUsers.id, userId));
  return row?.at ? new Date(row.at) : null;
}

/** The primary address as the session token carries it. */
export async function sessionEmail(tx: Conn, userId: string): Promise<SessionEmail | null> {
  const [row] = await tx
    .select({ address: authEmails.address, verified: authEmails.verified })
    .from(authEmails)
    .where(and(eq(authEmails.userId, userId), eq(authEmails.isPrimary, true)));
  return row ? { address: row.address, is_primary: true, is_verified: row.verified } : null;
}

let namesFor: { raw: string | undefined; names: Map<string, string> } | null = null;

/** The configured providers' display names by id (the configuration was checked at start). */
function providerNames(auth: AuthConfig): Map<string, string> {
  const raw = auth.AUTH_THIRDPARTY_PROVIDERS;
  if (!namesFor || namesFor.raw !== raw) {
    namesFor = { raw, names: new Map(parseProviders(raw).map((p) => [p.id, p.name])) };
  }
  return namesFor.names;
}

/** ProfileData (protocol §4.5) for success payloads and GET /me. */
export async function profileData(tx: Conn, userId: string, auth: AuthConfig) {
  const [user] = await tx.select().from(authUsers).where(eq(authUsers.id, userId));
  if (!user) return null;
  const emails = await tx
    .select()
    .from(authEmails)
    .where(eq(authEmails.userId, userId))
    .orderBy(asc(authEmails.createdAt));
  const [username] = await tx.select().from(authUsernames).where(eq(authUsernames.userId, userId));
  const identities = (
    await tx
      .select()
      .from(authIdentities)
      .where(eq(authIdentities.userId, userId))
      .orderBy(asc(authIdentities.createdAt))
  ).map((i) => ({
    address: i.email?.toLowerCase() ?? null,
    wire: {
      id: i.providerUserId,
      provider: i.provider,
      ...(providerNames(auth).has(i.provider)
        ? { provider_name: providerNames(auth).get(i.provider)! }
        : {}),
      identity_id: i.id,
    },
  }));
  // The provider an address came from: the accounts that vouched for exactly this address.
  const identitiesOf = (address: string) =>
    identities.filter((i) => i.address === address).map((i) => i.wire);
  const credentials = await credentialsOf(tx, userId);
  const passkeys = credentials.filter((c) => !c.mfaOnly).map(wireCredential);
  const securityKeys = credentials.filter((c) => c.mfaOnly).map(wireCredential);
  const mfa = auth.AUTH_MFA !== 'off';
  return {
    id: user.id,
    user_id: user.id,
    ...(passkeys.length > 0 ? { passkeys } : {}),
    ...(securityKeys.length > 0 ? { security_keys: securityKeys } : {}),
    mfa_config: {
      auth_app_set_up: !!(await otpSecretOf(tx, userId)),
      totp_enabled: mfa && auth.AUTH_MFA_TOTP,
      security_keys_enabled: mfa && auth.AUTH_MFA_SECURITY_KEYS,
    },
    emails: emails.map((e) => {
      const linked = identitiesOf(e.address);
      return {
        id: e.id,
        address: e.address,
        is_verified: e.verified,
        is_primary: e.isPrimary,
        ...(linked.length > 0 ? { identities: linked } : {}),
      };
    }),
    ...(username
      ? {
          username: {
            id: username.id,
            username: username.username,
            created_at: username.createdAt,
            updated_at: username.updatedAt,
          },
        }
      : {}),
    created_at: user.createdAt,
    updated_at: user.updatedAt,
    ...(identities.length > 0 ? { identities: identities.map((i) => i.wire) } : {}),
    ...userFacingMetadata(metadataOfRow(user)),
  };
}
