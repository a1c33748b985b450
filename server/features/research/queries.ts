import { sql, type SQL } from 'drizzle-orm';
import { APPOINTMENT_TYPES } from '../../../shared/contract/enums';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/raw-rows';
import { countColumnOf } from './columns';
import type { QuasiCount, QuasiValues } from './k-anonymity';

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
/** The campaign code; none when the person came through no campaign. */
const CAMPAIGN = sql.raw(`coalesce(nullif(btrim(c.campaign), ''), 'none')`);
const PAID_BY_SPONSOR = sql.raw(`c.paid_by_sponsor::text`);
/**
 * open, or the days from sign-up to the close of the coaching (Berlin days) in bands: an
 * exact day count is nearly unique to one person.
 */
const CLOSURE = sql.raw(
  `CASE WHEN c.sessions_closed_on IS NULL THEN 'open'
        ELSE CASE WHEN d.days < 90 THEN '0-89' WHEN d.days < 180 THEN '90-179'
                  WHEN d.days < 365 THEN '180-364' ELSE '365+' END END`,
);
/** The lateral join CLOSURE reads its day count from. */
const CLOSURE_DAYS = sql.raw(
  `CROSS JOIN LATERAL (SELECT ((c.sessions_closed_on AT TIME ZONE 'Europe/Berlin')::date
                               - (c.created_at AT TIME ZONE 'Europe/Berlin')::date) AS days) d`,
);

/**
 * The generalised quasi-identifiers of a client `c` (with CLOSURE_DAYS joined), selected the
 * same way for the counts and for the participant rows.
 */
const QUASI_COLUMNS = sql`${BIRTH_BAND} AS birth_band, ${POSTAL_REGION} AS postal_region,
             c.client_type, ${INSURER} AS insurer, ${CAMPAIGN} AS campaign,
             ${PAID_BY_SPONSOR} AS paid_by_sponsor, ${CLOSURE} AS closure`;

/** The columns QUASI_COLUMNS selects. */
export interface QuasiRow {
  birth_band: string;
  postal_region: string;
  client_type: string;
  insurer: string;
  campaign: string;
  paid_by_sponsor: string;
  closure: string;
}

/** A row's quasi-identifiers as the suppression plan keys them. */
export const quasiOf = (r: QuasiRow): QuasiValues => ({
  birthBand: r.birth_band,
  postalRegion: r.postal_region,
  clientType: r.client_type,
  insurer: r.insurer,
  campaign: r.campaign,
  paidBySponsor: r.paid_by_sponsor,
  closure: r.closure,
});

const MIN_UUID = '00000000-0000-0000-0000-000000000000';

/** How many clients share each combination of the quasi-identifiers (one GROUP BY). */
export async function quasiIdentifierCounts(db: Db): Promise<QuasiCount[]> {
  const rows = rowsOf<QuasiRow & { n: number }>(
    await db.execute(sql`
      SELECT ${QUASI_COLUMNS}, count(*)::int AS n
        FROM clients c ${CLOSURE_DAYS}
       WHERE ${CONSENTING}
       GROUP BY 1, 2, 3, 4, 5, 6, 7`),
  );
  return rows.map((r) => ({ ...quasiOf(r), count: Number(r.n) }));
}

/** The consenting clients and their appointments (provisional holds are not bookings). */
export async function researchCounts(
  db: Db,
): Promise<{ participants: number; appointments: number }> {
  const [row] = rowsOf<{ participants: number; appointments: number }>(
    await db.execute(sql`
      SELECT (SELECT count(*)::int FROM clients c WHERE ${CONSENTING}) AS participants,
             (SELECT count(*)::int FROM appointments a JOIN clients c ON c.id = a.client_id
               WHERE ${CONSENTING} AND NOT a.is_provisional) AS appointments`),
  );
  return {
    participants: Number(row?.participants ?? 0),
    appointments: Number(row?.appointments ?? 0),
  };
}

export interface ParticipantRow extends QuasiRow {
  id: string;
  mental_stress_indicator: number | null;
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
export async function participantPage(
  db: Db,
  afterId: string | null,
  limit: number,
): Promise<ParticipantRow[]> {
  return rowsOf<ParticipantRow>(
    await db.execute(sql`
      SELECT c.id, ${QUASI_COLUMNS}, c.mental_stress_indicator, a.*
        FROM clients c ${CLOSURE_DAYS}
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
