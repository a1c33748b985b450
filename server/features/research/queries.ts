import { sql, type SQL } from 'drizzle-orm';
import { APPOINTMENT_TYPES } from '../../../shared/contract/enums';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/raw-rows';
import { countColumnOf } from './columns';
import type { QuasiCount } from './k-anonymity';

/**
 * The research export's reads. Everything is generalised in SQL (the same expressions for the
 * counts and for the rows, so a row finds its combination's plan), and rows are read in
 * keyset pages: never more than one page of a table in memory.
 */

const CONSENTING = sql.raw('c.wants_to_provide_recordings_for_research');
const BERLIN_DAY = (column: string) => sql.raw(`(${column} AT TIME ZONE 'Europe/Berlin')::date`);

/** Year of birth in 5-year bands (1980-1984); unknown when not recorded. */
const BIRTH_BAND = sql.raw(
  `CASE WHEN c.year_of_birth IS NULL THEN 'unknown'
        ELSE (c.year_of_birth / 5 * 5)::text || '-' || (c.year_of_birth / 5 * 5 + 4)::text END`,
);
/** The German postal region (first two digits); unknown without a German five-digit code. */
const POSTAL_REGION = sql.raw(
  `CASE WHEN coalesce(nullif(upper(btrim(c.country)), ''), 'DE') = 'DE' AND btrim(c.postal_code) ~ '^[0-9]{5}$'
        THEN substr(btrim(c.postal_code), 1, 2) ELSE 'unknown' END`,
);
const INSURER = sql.raw(`coalesce(nullif(btrim(c.insurer), ''), 'unknown')`);

const MIN_UUID = '00000000-0000-0000-0000-000000000000';

/** How many clients share each combination of the quasi-identifiers (one GROUP BY). */
export async function quasiIdentifierCounts(db: Db): Promise<QuasiCount[]> {
  const rows = rowsOf<{ birth_band: string; postal_region: string; client_type: string; insurer: string; n: number }>(
    await db.execute(sql`
      SELECT ${BIRTH_BAND} AS birth_band, ${POSTAL_REGION} AS postal_region, c.client_type,
             ${INSURER} AS insurer, count(*)::int AS n
        FROM clients c
       WHERE ${CONSENTING}
       GROUP BY 1, 2, 3, 4`),
  );
  return rows.map((r) => ({
    birthBand: r.birth_band,
    postalRegion: r.postal_region,
    clientType: r.client_type,
    insurer: r.insurer,
    count: Number(r.n),
  }));
}

/** The consenting clients and their appointments (provisional holds are not bookings). */
export async function researchCounts(db: Db): Promise<{ participants: number; appointments: number }> {
  const [row] = rowsOf<{ participants: number; appointments: number }>(
    await db.execute(sql`
      SELECT (SELECT count(*)::int FROM clients c WHERE ${CONSENTING}) AS participants,
             (SELECT count(*)::int FROM appointments a JOIN clients c ON c.id = a.client_id
               WHERE ${CONSENTING} AND NOT a.is_provisional) AS appointments`),
  );
  return { participants: Number(row?.participants ?? 0), appointments: Number(row?.appointments ?? 0) };
}

export interface ParticipantRow {
  id: string;
  birth_band: string;
  postal_region: string;
  client_type: string;
  insurer: string;
  campaign: string | null;
  paid_by_sponsor: boolean;
  mental_stress_indicator: number | null;
  sessions_closed: boolean;
  days_to_sessions_closed: number | null;
  no_shows: number;
  cancellations: number;
  [countColumn: string]: unknown;
}

const typeCounts: SQL = sql.join(
  APPOINTMENT_TYPES.map((type) =>
    sql.raw(
      `count(*) FILTER (WHERE x.appointment_type = '${type}' AND x.cancelled_at IS NULL)::int AS ${countColumnOf(type)}`,
    ),
  ),
  sql`, `,
);

/** One page of participants after `afterId` (id order), with their appointment counts. */
export async function participantPage(db: Db, afterId: string | null, limit: number): Promise<ParticipantRow[]> {
  return rowsOf<ParticipantRow>(
    await db.execute(sql`
      SELECT c.id, ${BIRTH_BAND} AS birth_band, ${POSTAL_REGION} AS postal_region, c.client_type,
             ${INSURER} AS insurer, c.campaign, c.paid_by_sponsor, c.mental_stress_indicator,
             c.sessions_closed_on IS NOT NULL AS sessions_closed,
             (${BERLIN_DAY('c.sessions_closed_on')} - ${BERLIN_DAY('c.created_at')})::int AS days_to_sessions_closed,
             a.*
        FROM clients c
        CROSS JOIN LATERAL (
          SELECT ${typeCounts},
                 count(*) FILTER (WHERE x.no_show AND x.cancelled_at IS NULL)::int AS no_shows,
                 count(*) FILTER (WHERE x.cancelled_at IS NOT NULL)::int AS cancellations
            FROM appointments x
           WHERE x.client_id = c.id AND NOT x.is_provisional) a
       WHERE ${CONSENTING} AND c.id > ${afterId ?? MIN_UUID}::uuid
       ORDER BY c.id
       LIMIT ${sql.raw(String(limit))}`),
  );
}

export interface AppointmentRow {
  client_id: string;
  id: string;
  start_key: string;
  day_offset: number;
  appointment_type: string;
  outcome: 'held' | 'no_show' | 'cancelled' | 'scheduled';
  duration_min: number;
}

export interface AppointmentCursor {
  clientId: string;
  startKey: string;
  id: string;
}

/**
 * One page of the consenting clients' appointments after `after`, in (client, start, id)
 * order: the index appointments_client_start_idx, so each page is a short index walk.
 */
export async function appointmentPage(
  db: Db,
  after: AppointmentCursor | null,
  limit: number,
  now: Date,
): Promise<AppointmentRow[]> {
  const cursor = after ?? { clientId: MIN_UUID, startKey: '-infinity', id: MIN_UUID };
  return rowsOf<AppointmentRow>(
    await db.execute(sql`
      SELECT a.client_id, a.id, a.start_date::text AS start_key,
             (${BERLIN_DAY('a.start_date')} - ${BERLIN_DAY('c.created_at')})::int AS day_offset,
             a.appointment_type,
             CASE WHEN a.cancelled_at IS NOT NULL THEN 'cancelled'
                  WHEN a.no_show THEN 'no_show'
                  WHEN a.start_date > ${now.toISOString()}::timestamptz THEN 'scheduled'
                  ELSE 'held' END AS outcome,
             round(extract(epoch FROM a.end_date - a.start_date) / 60)::int AS duration_min
        FROM appointments a
        JOIN clients c ON c.id = a.client_id
       WHERE ${CONSENTING} AND NOT a.is_provisional
         AND (a.client_id, a.start_date, a.id) > (${cursor.clientId}::uuid, ${cursor.startKey}::timestamptz, ${cursor.id}::uuid)
       ORDER BY a.client_id, a.start_date, a.id
       LIMIT ${sql.raw(String(limit))}`),
  );
}
