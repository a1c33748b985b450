import { count, desc, eq } from 'drizzle-orm';
import { coaches, users } from '../../db/schema/index';
import type { Db, Tx } from '../../db/client';
import { forgetPrincipal, type Principal, type Role } from '../../http/auth';
import { defineHandlers } from '../../http/handler';
import { pageWindow } from '../../http/paging';
import {
  badRequest,
  conflict,
  forbidden,
  notFound,
  type ConstraintProblems,
} from '../../http/problem';
import { changedFields, recordEvent, updateRecorded } from '../events/index';
import { enqueueStaffInvitation } from '../notifications/index';
import { hashActivationCode, newActivationCode } from './codes';
import { coachLinkedTo, emailTaken, findUser, selectUsers, toUser } from './repository';
import { inTransaction } from '../../db/transaction';

// Nobody hands out more than they hold: the roles each caller may assign.
const ASSIGNABLE: Record<Role, readonly Role[]> = {
  SUPERADMIN: ['NONE', 'COACH', 'ONBOARDING_MANAGER', 'ADMIN', 'SUPERADMIN'],
  ADMIN: ['NONE', 'COACH', 'ONBOARDING_MANAGER', 'ADMIN'],
  ONBOARDING_MANAGER: ['NONE', 'COACH', 'ONBOARDING_MANAGER'],
  COACH: [],
  NONE: [],
};

function assertAssignable(principal: Principal, role: Role) {
  if (!ASSIGNABLE[principal.role].includes(role)) {
    throw forbidden(
      'role_not_assignable',
      `The role ${role} may not be assigned by ${principal.role}`,
    );
  }
}

const coachAlreadyLinked = () =>
  conflict('coach_already_linked', 'Another user is linked to this coach record');

/** A race past assertCoach ends on the unique index: it answers as the check does. */
export const usersConstraintProblems: ConstraintProblems = {
  users_coach_id_key: coachAlreadyLinked,
};

/** The coach record exists and no other account is linked to it. */
async function assertCoach(db: Db | Tx, coachId: string | null | undefined, userId?: string) {
  if (!coachId) return;
  const [row] = await db.select({ id: coaches.id }).from(coaches).where(eq(coaches.id, coachId));
  if (!row) throw badRequest('coachId', 'unknown_coach', 'No coach with this id');
  if (await coachLinkedTo(db, coachId, userId)) {
    throw coachAlreadyLinked();
  }
}

export const usersHandlers = defineHandlers({
  async createUser({ body, principal, deps, reply }) {
    assertAssignable(principal, body.role);
    if (body.role === 'COACH' && !body.coachId) {
      throw badRequest('coachId', 'value_missing', 'A coach account needs its coach record');
    }
    const code = newActivationCode();
    const user = await inTransaction(deps.db, async (tx) => {
      await assertCoach(tx, body.coachId);
      if (await emailTaken(tx, body.email)) {
        throw conflict('email_taken', 'A user with this e-mail address exists already');
      }
      const [row] = await tx
        .insert(users)
        .values({
          email: body.email,
          role: body.role,
          coachId: body.coachId ?? null,
          active: false,
          activationCodeHash: hashActivationCode(code),
        })
        .returning({ id: users.id });
      await recordEvent(tx, {
        type: 'user.created',
        entityType: 'user',
        entityId: row!.id,
        actor: principal,
        coachId: body.coachId ?? null,
        changes: { role: body.role },
      });
      // Staff get the way to their activation by mail; a NONE account is a client's affair.
      if (body.role !== 'NONE') {
        await enqueueStaffInvitation(tx, deps, { email: body.email, role: body.role });
      }
      return (await findUser(tx, row!.id))!;
    });
    reply.code(201);
    return { user, activationCode: code };
  },

  async listUsers({ query, deps }) {
    const { limit, offset } = pageWindow(query.page, query.limit);
    const [rows, [total]] = await Promise.all([
      selectUsers(deps.db).orderBy(desc(users.createdAt), users.id).limit(limit).offset(offset),
      deps.db.select({ n: count() }).from(users),
    ]);
    return { users: rows.map(toUser), itemCount: total?.n ?? 0 };
  },

  async getUser({ params, deps }) {
    const user = await findUser(deps.db, params.id);
    if (!user) throw notFound('user');
    return user;
  },

  async updateUser({ params, body, principal, deps }) {
    const updated = await inTransaction(deps.db, async (tx) => {
      const [before] = await tx.select().from(users).where(eq(users.id, params.id)).for('update');
      if (!before) throw notFound('user');
      // Only a super admin changes a super admin, and nobody locks themselves out.
      assertAssignable(principal, before.role);
      if (body.role) assertAssignable(principal, body.role);
      if (
        before.id === principal.user?.id &&
        (body.active === false || (body.role && body.role !== before.role))
      ) {
        throw forbidden(
          'cannot_change_own_account',
          'You cannot change your own role or deactivate yourself',
        );
      }
      await assertCoach(tx, body.coachId, before.id);
      const role = body.role ?? before.role;
      const coachId = body.coachId === undefined ? before.coachId : body.coachId;
      if (role === 'COACH' && !coachId) {
        throw badRequest('coachId', 'value_missing', 'A coach account needs its coach record');
      }
      const changes = changedFields(before, body);
      await updateRecorded(tx, users, params.id, body, {
        type: 'user.updated',
        entityType: 'user',
        actor: principal,
        coachId,
        changes,
      });
      return { user: (await findUser(tx, params.id))!, subject: before.authSubject };
    });
    forgetPrincipal(deps.db, updated.subject);
    return updated.user;
  },
});
