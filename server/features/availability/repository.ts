import { and, asc, eq, gt, isNull, lt, or, type SQL } from 'drizzle-orm';
import { childrenOf } from '../../db/children';
import type { Db, Tx } from '../../db/client';
import { availabilities, availabilityOverrides, coaches } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { scopeFilter } from '../../access/policy';
import { isoOfMs } from '../../time';
import { expandOccurrences, hhmm, ZONE, type OverrideFields } from './occurrences';

type AvailabilityRow = typeof availabilities.$inferSelect;
type OverrideRow = typeof availabilityOverrides.$inferSelect;

/** The availability the caller reaches (access policy: a coach their own). */
export const availabilityScope = (principal: Principal) => scopeFilter(principal, 'availability');

/** Series whose bounds overlap [from, to). */
export const overlapsWindow = (from: string, to: string) =>
  and(
    lt(availabilities.seriesStart, to),
    or(isNull(availabilities.seriesEnd), gt(availabilities.seriesEnd, from)),
  );

export async function selectAvailabilities(db: Db | Tx, where: SQL | undefined) {
  const rows = await db
    .select({
      availability: availabilities,
      coachFirstName: coaches.firstName,
      coachLastName: coaches.lastName,
    })
    .from(availabilities)
    .innerJoin(coaches, eq(coaches.id, availabilities.coachId))
    .where(where)
    .orderBy(asc(availabilities.seriesStart), asc(availabilities.id));
  const byAvailability = await childrenOf(
    db,
    availabilityOverrides,
    'availabilityId',
    rows.map((r) => r.availability.id),
    asc(availabilityOverrides.occurrenceDate),
  );
  return rows.map((r) => ({ ...r, overrides: byAvailability.get(r.availability.id) ?? [] }));
}

export type LoadedAvailability = Awaited<ReturnType<typeof selectAvailabilities>>[number];

export const overrideFields = (o: OverrideRow): OverrideFields => ({
  occurrenceDate: o.occurrenceDate,
  cancelled: o.cancelled,
  startDate: o.startDate,
  endDate: o.endDate,
});

/** The contract's Availability, with occurrences expanded in [from, to). */
export function toAvailability(loaded: LoadedAvailability, from: number, to: number) {
  const a: AvailabilityRow = loaded.availability;
  const overrides = loaded.overrides.map(overrideFields);
  return {
    id: a.id,
    coachId: a.coachId,
    coach: { id: a.coachId, firstName: loaded.coachFirstName, lastName: loaded.coachLastName },
    kind: a.kind,
    timeZone: ZONE as 'Europe/Berlin',
    startDay: a.startDay,
    startTime: hhmm(a.startTime),
    endTime: hhmm(a.endTime),
    recurrence: a.recurrence,
    note: a.note,
    overrides,
    occurrences: expandOccurrences(a, overrides, from, to).map((o) => ({
      occurrenceDate: o.occurrenceDate,
      startDate: isoOfMs(o.start),
      endDate: isoOfMs(o.end),
      modified: o.modified,
    })),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

export async function findAvailability(db: Db | Tx, principal: Principal, id: string) {
  const [row] = await selectAvailabilities(
    db,
    and(eq(availabilities.id, id), availabilityScope(principal)),
  );
  return row ?? null;
}
