import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { clients, coaches, users } from '../../db/schema/index';

export type UserRow = typeof users.$inferSelect;

const userColumns = {
  id: users.id,
  email: users.email,
  role: users.role,
  active: users.active,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  activatedAt: users.activatedAt,
  coachId: coaches.id,
  coachFirstName: coaches.firstName,
  coachLastName: coaches.lastName,
};

type UserJoined = {
  [K in keyof typeof userColumns]: (typeof userColumns)[K]['_']['data'] | null;
};

export function toUser(row: UserJoined) {
  return {
    id: row.id!,
    email: row.email!,
    role: row.role!,
    active: row.active!,
    coach: row.coachId
      ? { id: row.coachId, firstName: row.coachFirstName!, lastName: row.coachLastName! }
      : null,
    createdAt: row.createdAt!,
    updatedAt: row.updatedAt!,
    activatedAt: row.activatedAt ?? null,
  };
}

export function selectUsers(db: Db | Tx) {
  return db.select(userColumns).from(users).leftJoin(coaches, eq(coaches.id, users.coachId));
}

export async function findUser(db: Db | Tx, id: string) {
  const [row] = await selectUsers(db).where(eq(users.id, id));
  return row ? toUser(row) : null;
}

/**
 * Whether another user has this address. The row a person got by merely signing in
 * (role NONE, inactive, no client record) does not count: an admin may still create that
 * person's staff account, and activating it replaces that row.
 */
export async function emailTaken(db: Db | Tx, email: string, exceptId?: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        sql`lower(${users.email}) = lower(${email})`,
        exceptId ? ne(users.id, exceptId) : undefined,
        sql`NOT (${users.role} = 'NONE' AND NOT ${users.active} AND ${users.authSubject} IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM ${clients} WHERE ${clients.userId} = ${users.id}))`,
      ),
    )
    .limit(1);
  return !!row;
}

/** The user (other than `exceptId`) whose account is linked to this coach record, if any. */
export async function coachLinkedTo(db: Db | Tx, coachId: string, exceptId?: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.coachId, coachId), exceptId ? ne(users.id, exceptId) : undefined))
    .limit(1);
  return row?.id ?? null;
}
