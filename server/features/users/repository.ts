import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { coaches, users } from '../../db/schema/index';

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

export async function emailTaken(db: Db | Tx, email: string, exceptId?: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  return !!row && row.id !== exceptId;
}
