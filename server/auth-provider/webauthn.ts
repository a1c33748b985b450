import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { authWebauthnCredentials } from '../db/schema/index';
import type { AuthConfig } from './config';

type Conn = Tx | Db;

/** Relying party: id, display name and the origins responses may come from. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
  timeout: number;
}

export function relyingParty(auth: AuthConfig, publicUrl: string): RelyingParty {
  const origins = auth.AUTH_WEBAUTHN_ORIGINS
    ? auth.AUTH_WEBAUTHN_ORIGINS.split(',').map((o) => new URL(o.trim()).origin)
    : [new URL(publicUrl).origin];
  return {
    id: auth.AUTH_WEBAUTHN_RP_ID ?? new URL(publicUrl).hostname,
    name: auth.AUTH_WEBAUTHN_RP_NAME,
    origins,
    timeout: auth.AUTH_WEBAUTHN_TIMEOUT_MS,
  };
}

export type CredentialRow = typeof authWebauthnCredentials.$inferSelect;

/** A verified, not yet stored credential (registration keeps it in the flow until the user exists). */
export interface NewCredential {
  id: string;
  publicKey: string;
  attestationType: string;
  aaguid: string;
  signCount: number;
  transports: string[];
  backupEligible: boolean;
  backupState: boolean;
  mfaOnly: boolean;
  name: string;
}

/**
 * "Passkey-" / "SecurityKey-" plus the last 7 alphanumerics of the public key (the specification's
 * entities).
 */
export function defaultCredentialName(publicKey: string, mfaOnly: boolean) {
  const alnum = publicKey.replace(/[^A-Za-z0-9]/g, '');
  return `${mfaOnly ? 'SecurityKey' : 'Passkey'}-${alnum.slice(-7)}`;
}

/** A user handle is the user id's 16 bytes. */
export const userHandle = (userId: string) => Buffer.from(userId.replace(/-/g, ''), 'hex');

export function userIdFromHandle(handle: string | undefined): string | null {
  if (!handle) return null;
  const hex = Buffer.from(handle, 'base64url').toString('hex');
  if (hex.length !== 32) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Options for `navigator.credentials.create`, webauthn-json shape, and their challenge. */
export async function creationOptions(
  rp: RelyingParty,
  input: {
    userId: string;
    userName: string;
    exclude: { id: string; transports: string[] }[];
    mfaOnly: boolean;
    auth: AuthConfig;
  },
) {
  const { auth } = input;
  const attachment = auth.AUTH_MFA_SECURITY_KEY_ATTACHMENT;
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: userHandle(input.userId),
    userName: input.userName,
    userDisplayName: input.userName,
    timeout: rp.timeout,
    attestationType: 'none',
    excludeCredentials: input.exclude.map((c) => ({
      id: c.id,
      transports: c.transports as AuthenticatorTransport[],
    })),
    authenticatorSelection: input.mfaOnly
      ? {
          residentKey: 'discouraged',
          requireResidentKey: false,
          userVerification: 'discouraged',
          ...(attachment === 'any' ? {} : { authenticatorAttachment: attachment }),
        }
      : {
          residentKey: 'required',
          requireResidentKey: true,
          userVerification: auth.AUTH_PASSKEY_USER_VERIFICATION,
        },
  });
  return { options: { publicKey: options }, challenge: options.challenge };
}

/** Options for `navigator.credentials.get`; no allow-list means discoverable credentials. */
export async function requestOptions(
  rp: RelyingParty,
  input: {
    allow?: { id: string; transports: string[] }[];
    userVerification: 'required' | 'preferred' | 'discouraged';
  },
) {
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: rp.timeout,
    userVerification: input.userVerification,
    ...(input.allow
      ? {
          allowCredentials: input.allow.map((c) => ({
            id: c.id,
            transports: c.transports as AuthenticatorTransport[],
          })),
        }
      : {}),
  });
  return { options: { publicKey: options }, challenge: options.challenge };
}

/** What a response must have been made for: this challenge, one of our origins, our RP id. */
const expected = (rp: RelyingParty, challenge: string) => ({
  expectedChallenge: challenge,
  expectedOrigin: rp.origins,
  expectedRPID: rp.id,
});

/** Checks an attestation (origin, RP id, challenge, signature); null when it fails. */
export async function verifyAttestation(
  rp: RelyingParty,
  response: unknown,
  challenge: string,
  input: { mfaOnly: boolean; requireUserVerification: boolean },
): Promise<NewCredential | null> {
  try {
    const result = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      ...expected(rp, challenge),
      requireUserVerification: input.requireUserVerification,
    });
    if (!result.verified) return null;
    const info = result.registrationInfo;
    const publicKey = Buffer.from(info.credential.publicKey).toString('base64url');
    return {
      id: info.credential.id,
      publicKey,
      attestationType: info.fmt,
      aaguid: info.aaguid,
      signCount: info.credential.counter,
      transports: info.credential.transports ?? [],
      backupEligible: info.credentialDeviceType === 'multiDevice',
      backupState: info.credentialBackedUp,
      mfaOnly: input.mfaOnly,
      name: defaultCredentialName(publicKey, input.mfaOnly),
    };
  } catch {
    return null;
  }
}

/** The credential id an assertion names (before it is verified). */
export function assertionCredentialId(response: unknown): string | null {
  const id = (response as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length > 0 && id.length <= 1024 ? id : null;
}

export function assertionUserHandle(response: unknown): string | undefined {
  const handle = (response as { response?: { userHandle?: unknown } } | null)?.response?.userHandle;
  return typeof handle === 'string' ? handle : undefined;
}

/**
 * Checks an assertion against a stored credential: origin, RP id, challenge, signature and
 * the signature counter (a counter that does not grow is refused). Answers the new counter.
 */
export async function verifyAssertion(
  rp: RelyingParty,
  response: unknown,
  challenge: string,
  credential: CredentialRow,
  requireUserVerification: boolean,
): Promise<{ counter: number; backupState: boolean } | null> {
  try {
    const result = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      ...expected(rp, challenge),
      credential: {
        id: credential.id,
        publicKey: Buffer.from(credential.publicKey, 'base64url'),
        counter: credential.signCount,
        transports: credential.transports as AuthenticatorTransport[],
      },
      requireUserVerification,
    });
    if (!result.verified) return null;
    return {
      counter: result.authenticationInfo.newCounter,
      backupState: result.authenticationInfo.credentialBackedUp,
    };
  } catch {
    return null;
  }
}

// Storage. Every query that changes a credential carries the owner's user id.

export async function credentialsOf(tx: Conn, userId: string) {
  return tx
    .select()
    .from(authWebauthnCredentials)
    .where(eq(authWebauthnCredentials.userId, userId))
    .orderBy(asc(authWebauthnCredentials.createdAt), asc(authWebauthnCredentials.id));
}

export async function findCredential(tx: Conn, id: string) {
  const [row] = await tx
    .select()
    .from(authWebauthnCredentials)
    .where(eq(authWebauthnCredentials.id, id));
  return row ?? null;
}

/** Stores a credential; false when its id is already registered (to anyone). */
export async function insertCredential(tx: Conn, userId: string, c: NewCredential, now: Date) {
  const at = now.toISOString();
  const rows = await tx
    .insert(authWebauthnCredentials)
    .values({
      id: c.id,
      userId,
      name: c.name,
      publicKey: c.publicKey,
      attestationType: c.attestationType,
      aaguid: c.aaguid,
      signCount: c.signCount,
      transports: c.transports,
      backupEligible: c.backupEligible,
      backupState: c.backupState,
      mfaOnly: c.mfaOnly,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing()
    .returning({ id: authWebauthnCredentials.id });
  return rows.length > 0;
}

export async function recordUse(
  tx: Conn,
  id: string,
  used: { counter: number; backupState: boolean },
  now: Date,
) {
  await tx
    .update(authWebauthnCredentials)
    .set({ signCount: used.counter, backupState: used.backupState, lastUsedAt: now.toISOString() })
    .where(eq(authWebauthnCredentials.id, id));
}

export async function renameCredential(
  tx: Conn,
  userId: string,
  id: string,
  name: string,
  now: Date,
) {
  const rows = await tx
    .update(authWebauthnCredentials)
    .set({ name, updatedAt: now.toISOString() })
    .where(and(eq(authWebauthnCredentials.userId, userId), eq(authWebauthnCredentials.id, id)))
    .returning({ id: authWebauthnCredentials.id });
  return rows.length > 0;
}

export async function deleteCredential(tx: Conn, userId: string, id: string) {
  const rows = await tx
    .delete(authWebauthnCredentials)
    .where(and(eq(authWebauthnCredentials.userId, userId), eq(authWebauthnCredentials.id, id)))
    .returning({ id: authWebauthnCredentials.id });
  return rows.length > 0;
}

/** The wire shape (ProfileData passkeys / security_keys, protocol §4.5). */
export const wireCredential = (c: CredentialRow) => ({
  id: c.id,
  ...(c.name ? { name: c.name } : {}),
  public_key: c.publicKey,
  attestation_type: c.attestationType,
  aaguid: c.aaguid,
  ...(c.lastUsedAt ? { last_used_at: c.lastUsedAt } : {}),
  created_at: c.createdAt,
  transports: c.transports,
  backup_eligible: c.backupEligible,
  backup_state: c.backupState,
  mfa_only: c.mfaOnly,
});
