import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { authUsers, type UserMetadataObject } from '../db/schema/index';

type Conn = Tx | Db;

/** Hanko's limit: each kind of metadata at most 3000 characters of JSON. */
export const METADATA_MAX_CHARS = 3000;

export const METADATA_KINDS = ['public_metadata', 'private_metadata', 'unsafe_metadata'] as const;
export type MetadataKind = (typeof METADATA_KINDS)[number];
export type UserMetadata = Partial<Record<MetadataKind, UserMetadataObject>>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * JSON merge patch (RFC 7396): object members are merged recursively, `null` removes a key,
 * anything else (arrays included) replaces. Written out because the npm implementation
 * throws on a stored key named `hasOwnProperty` and stops silently at `__proto__`; here keys
 * are plain data (the result has no prototype to pollute until it is copied out as JSON).
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = Object.create(null);
  if (isObject(target)) for (const [key, value] of Object.entries(target)) result[key] = value;
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/** An empty object is stored as no metadata (null), as Hanko shows none for `{}`. */
const stored = (value: unknown): UserMetadataObject | null =>
  isObject(value) && Object.keys(value).length > 0
    ? (JSON.parse(JSON.stringify(value)) as UserMetadataObject)
    : null;

const tooLarge = (value: UserMetadataObject | null) =>
  value !== null && JSON.stringify(value).length > METADATA_MAX_CHARS;

/** The metadata of an `auth_users` row, the kinds that are set. */
export function metadataOfRow(
  row: Pick<typeof authUsers.$inferSelect, 'publicMetadata' | 'privateMetadata' | 'unsafeMetadata'>,
): UserMetadata {
  return {
    ...(row.publicMetadata ? { public_metadata: row.publicMetadata } : {}),
    ...(row.privateMetadata ? { private_metadata: row.privateMetadata } : {}),
    ...(row.unsafeMetadata ? { unsafe_metadata: row.unsafeMetadata } : {}),
  };
}

export async function metadataOf(tx: Conn, userId: string): Promise<UserMetadata | null> {
  const [row] = await tx.select().from(authUsers).where(eq(authUsers.id, userId));
  return row ? metadataOfRow(row) : null;
}

/**
 * What the user sees of their metadata (ProfileData, GET /me, GET /users/{id}): public and
 * unsafe, never private; absent when there is none.
 */
export function userFacingMetadata(metadata: UserMetadata | null) {
  const shown = {
    ...(metadata?.public_metadata ? { public_metadata: metadata.public_metadata } : {}),
    ...(metadata?.unsafe_metadata ? { unsafe_metadata: metadata.unsafe_metadata } : {}),
  };
  return Object.keys(shown).length > 0 ? { metadata: shown } : {};
}

/**
 * The user's own patch (profile flow, `patch_metadata`): a merge patch of `unsafe_metadata`,
 * or null to clear it. Answers 'too_large' (and stores nothing) past METADATA_MAX_CHARS.
 */
export async function patchUnsafeMetadata(
  tx: Tx,
  userId: string,
  patch: Record<string, unknown> | null,
  now: Date,
): Promise<'ok' | 'too_large'> {
  const [row] = await tx
    .select({ unsafe: authUsers.unsafeMetadata })
    .from(authUsers)
    .where(eq(authUsers.id, userId))
    .for('update');
  const next = patch === null ? null : stored(mergePatch(row?.unsafe ?? {}, patch));
  if (tooLarge(next)) return 'too_large';
  await tx
    .update(authUsers)
    .set({ unsafeMetadata: next, updatedAt: now.toISOString() })
    .where(eq(authUsers.id, userId));
  return 'ok';
}

/**
 * The operator's patch (Hanko's admin API semantics): a merge patch of
 * `{public_metadata, private_metadata, unsafe_metadata}`, null clearing all three. Answers the
 * kinds that would grow past METADATA_MAX_CHARS (nothing stored then), or null when the user
 * does not exist.
 */
export async function patchMetadata(
  tx: Tx,
  userId: string,
  patch: Record<string, unknown> | null,
  now: Date,
): Promise<{ metadata: UserMetadata; tooLarge: MetadataKind[] } | null> {
  const current = await metadataOf(tx, userId);
  if (!current) return null;
  const merged = patch === null ? {} : (mergePatch(current, patch) as Record<string, unknown>);
  const next = Object.fromEntries(
    METADATA_KINDS.map((kind) => [kind, stored(merged[kind])]),
  ) as Record<MetadataKind, UserMetadataObject | null>;
  const over = METADATA_KINDS.filter((kind) => tooLarge(next[kind]));
  if (over.length > 0) return { metadata: current, tooLarge: over };
  await tx
    .update(authUsers)
    .set({
      publicMetadata: next.public_metadata,
      privateMetadata: next.private_metadata,
      unsafeMetadata: next.unsafe_metadata,
      updatedAt: now.toISOString(),
    })
    .where(eq(authUsers.id, userId));
  return {
    metadata: Object.fromEntries(
      Object.entries(next).filter(([, v]) => v !== null),
    ) as UserMetadata,
    tooLarge: [],
  };
}
