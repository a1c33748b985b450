import { eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Placeholder } from 'drizzle-orm';
import {
  appointmentSummaries,
  appointments,
  availabilities,
  billableItems,
  clients,
  patientCards,
} from '../db/schema/index';
import type { Principal } from '../http/auth';
import type { components } from '../../shared/contract/product';
import { mayReadClinical } from '../../shared/clinical-access';

/**
 * Who may see which records, stated once: every feature filters its queries and checks its
 * loaded records with these, and the session's permissions (permissions.ts) are read from the
 * same lists. Which roles may call an operation at all is the contract's `x-roles`
 * (checkRoles); this is what a caller who passed that check reaches.
 *
 * The rule: a coach reaches the records of their own coach record (the appointments they hold,
 * their availability and calendars) and of the clients they coach (the clients, their
 * documents and billable items); a coach account without a coach record reaches nothing;
 * every other role that may call the operation reaches every record.
 */

type Role = components['schemas']['Role'];

/** The staff roles (everyone but a client). */
export const STAFF: readonly Role[] = ['COACH', 'ADMIN', 'ONBOARDING_MANAGER', 'SUPERADMIN'];
/** Staff who work for every coach and so pick the coach (scheduling, the lists' coach filter). */
export const PICKS_COACH: readonly Role[] = ['ADMIN', 'ONBOARDING_MANAGER', 'SUPERADMIN'];
/** Who holds appointments themselves (the day's own appointments, the join link). */
export const HOLDS_APPOINTMENTS: readonly Role[] = ['COACH'];

/** Whose records a caller reaches: every coach's, one coach's own, or none. */
export type ListScope = 'all' | 'coach' | 'none';
export type Reach = { kind: 'all' } | { kind: 'coach'; coachId: string } | { kind: 'none' };

export function reachOf(principal: Principal): Reach {
  if (principal.role !== 'COACH') return { kind: 'all' };
  const coachId = principal.user?.coachId;
  return coachId ? { kind: 'coach', coachId } : { kind: 'none' };
}

export const listScopeOf = (principal: Principal): ListScope => reachOf(principal).kind;

/** A coach id as a value or as a prepared statement's placeholder. */
export type CoachOperand = string | Placeholder;

const coachedClients = (coach: CoachOperand) =>
  sql`(SELECT ${clients.id} FROM ${clients} WHERE ${clients.coachedById} = ${coach})`;

/** Each scoped table's rule for one coach's records. */
const OWNED_BY = {
  clients: (coach: CoachOperand) => eq(clients.coachedById, coach),
  appointments: (coach: CoachOperand) => eq(appointments.coachId, coach),
  availability: (coach: CoachOperand) => eq(availabilities.coachId, coach),
  billableItems: (coach: CoachOperand) =>
    or(eq(billableItems.coachId, coach), inArray(billableItems.clientId, coachedClients(coach)))!,
  summaries: (coach: CoachOperand) =>
    or(
      eq(appointmentSummaries.coachId, coach),
      inArray(appointmentSummaries.clientId, coachedClients(coach)),
    )!,
  patientCards: (coach: CoachOperand) =>
    or(eq(patientCards.coachId, coach), inArray(patientCards.clientId, coachedClients(coach)))!,
} satisfies Record<string, (coach: CoachOperand) => SQL>;

export type ScopedTable = keyof typeof OWNED_BY;

/**
 * The table's filter for a scope: nothing for `all`, no row for `none`, the coach's own rows
 * for `coach` (the coach a value, or a placeholder in a statement prepared once per scope).
 */
export function scopeWhere(
  table: ScopedTable,
  scope: ListScope,
  coach: CoachOperand | null | undefined,
): SQL | undefined {
  if (scope === 'all') return undefined;
  if (scope === 'none' || coach == null) return sql`false`;
  return OWNED_BY[table](coach);
}

/** The caller's filter on a table (undefined = every row). */
export function scopeFilter(principal: Principal, table: ScopedTable): SQL | undefined {
  const reach = reachOf(principal);
  return scopeWhere(table, reach.kind, reach.kind === 'coach' ? reach.coachId : null);
}

/** Whether the caller reaches a coach's own records (their calendar, availability, bookings). */
export function reachesCoach(principal: Principal, coachId: string | null | undefined): boolean {
  const reach = reachOf(principal);
  return reach.kind === 'all' || (reach.kind === 'coach' && reach.coachId === coachId);
}

/**
 * Whether the caller reaches a loaded record that belongs to a coach and a client (an
 * appointment, a document, a billable item): its own coach, or the coach of its client.
 */
export function reachesRecord(
  principal: Principal,
  record: { coachId: string | null; clientCoachId: string | null },
): boolean {
  const reach = reachOf(principal);
  if (reach.kind !== 'coach') return reach.kind === 'all';
  return record.coachId === reach.coachId || record.clientCoachId === reach.coachId;
}

/**
 * The coach a list is limited to, given the coach asked for: a coach always gets their own
 * (asking for another coach's matches nothing: null), everyone else the one asked for
 * (`undefined` = every coach).
 */
export function coachLimit(
  principal: Principal,
  asked: string | null | undefined,
): string | null | undefined {
  const reach = reachOf(principal);
  if (reach.kind === 'all') return asked ?? undefined;
  if (reach.kind === 'none' || (asked && asked !== reach.coachId)) return null;
  return reach.coachId;
}

/** Clinical content of a record the caller reaches (coaches, admins; not onboarding managers). */
export const mayReadContent = (
  principal: Principal,
  record: { coachId: string | null; clientCoachId: string | null },
) => mayReadClinical(principal.role) && reachesRecord(principal, record);

/** A client (role NONE) acting on their own records rather than as staff. */
export const actsAsClient = (principal: Principal) => principal.role === 'NONE';
