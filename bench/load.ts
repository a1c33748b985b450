/**
 * Bulk load for the benchmark: everything is generated inside PostgreSQL with
 * INSERT … SELECT … FROM generate_series, so 150,000 rows take seconds, not minutes.
 *
 * Shape:
 * - 50 coaches; clients are coached round-robin (client g → coach (g - 1) % 50).
 * - 50,000 clients, created one every 20 minutes back from now (about two years), German
 *   names from small lists; every 250th is a "Müller" (200 in all, none with closed sessions) and no other row contains
 *   "müller", so `search=müller` has exactly 200 hits.
 * - 100,000 appointments, 2,000 per coach on a grid of one-hour slots (Mon–Fri, 08:00–18:00
 *   Europe/Berlin, 200 working days from 30 weeks ago): no duration exceeds 60 minutes, so
 *   no two appointments of a coach overlap and the exclusion constraint holds. Each client
 *   has two: number 1 (initial) in the first 100 working days, number 2 in the last 100.
 */
import pg from 'pg';
import { loadConfig } from '../server/config';
import { connectPostgres } from '../server/db/client';
import { catchUpBillableItems } from '../server/features/billing/index';
import { CAMPAIGNS, INSURERS } from '../server/seed/data';

export const SIZES = {
  coaches: 50,
  clients: 50_000,
  appointments: 100_000,
  muellers: 200,
} as const;

const FIRST_NAMES = [
  'Anna',
  'Lena',
  'Marie',
  'Sophie',
  'Laura',
  'Julia',
  'Hannah',
  'Lea',
  'Sarah',
  'Emma',
  'Mia',
  'Katharina',
  'Sabine',
  'Petra',
  'Monika',
  'Ursula',
  'Gisela',
  'Helga',
  'Ayşe',
  'Elif',
  'Lukas',
  'Jonas',
  'Leon',
  'Felix',
  'Paul',
  'Maximilian',
  'Tim',
  'Jan',
  'Niklas',
  'Tobias',
  'Thomas',
  'Michael',
  'Andreas',
  'Stefan',
  'Peter',
  'Klaus',
  'Jürgen',
  'Wolfgang',
  'Mehmet',
  'Ali',
];
// Deliberately without Müller (and names containing it): the search scenario counts on it.
const LAST_NAMES = [
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Schulz',
  'Hoffmann',
  'Schäfer',
  'Koch',
  'Bauer',
  'Richter',
  'Klein',
  'Wolf',
  'Schröder',
  'Neumann',
  'Schwarz',
  'Zimmermann',
  'Braun',
  'Krüger',
  'Hofmann',
  'Hartmann',
  'Lange',
  'Schmitt',
  'Werner',
  'Schmitz',
  'Krause',
  'Meier',
  'Lehmann',
  'Schmid',
  'Schulze',
  'Maier',
  'Köhler',
  'Herrmann',
  'König',
  'Walter',
  'Mayer',
  'Huber',
  'Kaiser',
  'Fuchs',
  'Peters',
  'Lang',
  'Scholz',
  'Möller',
  'Weiß',
  'Jung',
  'Hahn',
  'Schubert',
  'Vogel',
  'Friedrich',
  'Keller',
  'Günther',
  'Frank',
  'Berger',
  'Winkler',
  'Roth',
  'Beck',
  'Lorenz',
  'Baumann',
  'Yılmaz',
  'Kaya',
  'Nowak',
  'Kowalski',
];
const STREETS = [
  'Hauptstraße',
  'Schulstraße',
  'Gartenstraße',
  'Bahnhofstraße',
  'Dorfstraße',
  'Bergstraße',
  'Birkenweg',
  'Lindenstraße',
  'Kirchstraße',
  'Waldstraße',
  'Ringstraße',
  'Am Markt',
];
const CITIES = [
  'Berlin',
  'Hamburg',
  'München',
  'Köln',
  'Frankfurt am Main',
  'Stuttgart',
  'Düsseldorf',
  'Leipzig',
  'Dortmund',
  'Dresden',
];

/** A well-mixed integer 0 … 2^31-1 from a salt and the row number, so columns don't correlate. */
const hash = (salt: string, n: string) =>
  `(('x' || substr(md5('${salt}' || ${n}), 1, 8))::bit(32)::int & 2147483647)`;

const list = (values: readonly (string | null)[]) =>
  `ARRAY[${values.map((v) => (v === null ? 'NULL' : `'${v.replace(/'/g, "''")}'`)).join(', ')}]::text[]`;

export interface LoadResult {
  timingsMs: Record<string, number>;
  /** Ids and values the scenarios use. */
  fixtures: {
    coachId: string;
    adminSubject: string;
    coachSubject: string;
    someClientId: string;
    phoneNumber: string;
    insurer: string;
    campaign: string;
  };
}

export async function loadBenchData(client: pg.Client | pg.PoolClient): Promise<LoadResult> {
  const timingsMs: Record<string, number> = {};
  const step = async (name: string, text: string) => {
    const t = performance.now();
    await client.query(text);
    timingsMs[name] = Math.round(performance.now() - t);
  };

  await step(
    'coaches+users+catalogue',
    `
    INSERT INTO coaches (first_name, last_name, email)
    SELECT (${list(FIRST_NAMES)})[1 + (g * 7) % ${FIRST_NAMES.length}],
           'Coach ' || lpad(g::text, 2, '0'),
           'coach' || lpad(g::text, 2, '0') || '@bench.example'
      FROM generate_series(1, ${SIZES.coaches}) g;
    INSERT INTO users (auth_subject, email, role, active, coach_id)
    VALUES ('bench-admin', 'admin@bench.example', 'ADMIN', true, NULL),
           ('bench-coach', 'coach01@bench.example', 'COACH', true,
            (SELECT id FROM coaches WHERE email = 'coach01@bench.example'));
    INSERT INTO insurers (name, ik_number)
    VALUES ${INSURERS.map((i) => `('${i.name}', '${i.ikNumber}')`).join(', ')};
    INSERT INTO campaigns (code, name)
    VALUES ${CAMPAIGNS.map((c) => `('${c.code}', '${c.name}')`).join(', ')};
  `,
  );

  // Client g (1-based) is coached by coach (g - 1) % 50, created g × 20 minutes ago.
  const campaigns = [...CAMPAIGNS.map((c) => c.code), null, null];
  await step(
    'clients',
    `
    INSERT INTO clients (
      first_name, last_name, email, year_of_birth, street, city, postal_code, country, telephone,
      additional_telephone_numbers, insurer, insurer_code, campaign, client_type, contact_person,
      rejection_reason_type, sessions_closed_on, wants_to_provide_recordings_for_research,
      coached_by_id, created_at, updated_at)
    SELECT
      (${list(FIRST_NAMES)})[1 + (g * 7) % ${FIRST_NAMES.length}],
      CASE WHEN g % ${SIZES.clients / SIZES.muellers} = 1 THEN 'Müller'
           ELSE (${list(LAST_NAMES)})[1 + (g * 13) % ${LAST_NAMES.length}] END,
      'klient' || g || '@bench.example',
      1940 + (g * 31) % 66,
      (${list(STREETS)})[1 + g % ${STREETS.length}] || ' ' || (1 + g % 120),
      (${list(CITIES)})[1 + (g * 3) % ${CITIES.length}],
      lpad((10000 + (g * 37) % 89999)::text, 5, '0'),
      'DE',
      '01' || (51 + g % 29) || ' ' || lpad(((g::bigint * 7919) % 10000000)::text, 7, '0'),
      CASE WHEN g % 7 = 0 THEN '030 ' || lpad(((g::bigint * 6007) % 10000000)::text, 7, '0') END,
      (${list(INSURERS.map((i) => i.name))})[1 + ${hash('ins', 'g')} % ${INSURERS.length}],
      chr(65 + g % 26) || lpad(((g::bigint * 104729) % 1000000000)::text, 9, '0'),
      (${list(campaigns)})[1 + ${hash('cmp', 'g')} % ${campaigns.length}],
      CASE WHEN g % 10 = 0 THEN 'relative' ELSE 'self' END,
      CASE WHEN g % 10 = 0 THEN jsonb_build_object('firstName', 'Kontakt', 'lastName', 'Person ' || g,
        'email', 'kontakt' || g || '@bench.example', 'telephone', '0170 ' || lpad(g::text, 7, '0')) END,
      CASE WHEN g % 12 = 0 THEN 'no_interest' END,
      CASE WHEN g % 15 = 0 THEN now() - interval '10 days' END,
      g % 4 = 0,
      co.ids[1 + (g - 1) % ${SIZES.coaches}],
      now() - g * interval '20 minutes',
      now() - g * interval '20 minutes'
    FROM generate_series(1, ${SIZES.clients}) g,
         (SELECT array_agg(id ORDER BY email) AS ids FROM coaches) co;
  `,
  );

  // Appointment i: coach c = i % 50, slot k = i / 50 (0..1999) → working day k / 10, hour
  // 8 + k % 10; client g = 50 × (k % 1000) + c + 1 (coached by c); number 1 for k < 1000.
  const perCoach = SIZES.appointments / SIZES.coaches;
  const perClient = perCoach / 2;
  await step(
    'appointments',
    `
    WITH base AS (
      SELECT (date_trunc('week', now() AT TIME ZONE 'Europe/Berlin')::date - 30 * 7) AS monday
    ), slots AS (
      SELECT i, i % ${SIZES.coaches} AS c, i / ${SIZES.coaches} AS k FROM generate_series(0, ${SIZES.appointments - 1}) i
    ), typed AS (
      SELECT s.*, ((b.monday + ((s.k / 10) / 5) * 7 + (s.k / 10) % 5) + make_time(8 + s.k % 10, 0, 0))
               AT TIME ZONE 'Europe/Berlin' AS start_date,
             CASE WHEN s.k < ${perClient} THEN 'initial'
                  ELSE (ARRAY['first', 'first', 'first', 'first', 'followup', 'followup', 'followup', 'followup',
                              'first-arztkonsultation', 'followup-arztkonsultation'])[1 + ${hash('typ', 's.i')} % 10] END AS type
        FROM slots s, base b
    )
    INSERT INTO appointments (
      client_id, coach_id, start_date, end_date, appointment_type, meeting_type,
      meeting_code_coach, meeting_code_client, video_room, appointment_number, no_show,
      cancelled_at, created_at, updated_at)
    SELECT cl.ids[${SIZES.coaches} * (t.k % ${perClient}) + t.c + 1],
           co.ids[t.c + 1],
           t.start_date,
           t.start_date + CASE t.type WHEN 'initial' THEN interval '30 minutes'
                                      WHEN 'first' THEN interval '60 minutes'
                                      WHEN 'followup' THEN interval '50 minutes'
                                      ELSE interval '30 minutes' END,
           t.type,
           CASE WHEN t.type LIKE '%arztkonsultation' THEN 'arztkonsultation' ELSE 'jitsi' END,
           substr(md5('c' || t.i), 1, 4) || '-' || substr(md5('c' || t.i), 5, 4) || '-' || substr(md5('c' || t.i), 9, 4),
           substr(md5('k' || t.i), 1, 4) || '-' || substr(md5('k' || t.i), 5, 4) || '-' || substr(md5('k' || t.i), 9, 4),
           'bench-' || md5('r' || t.i),
           CASE WHEN t.k < ${perClient} THEN 1 ELSE 2 END,
           t.i % 17 = 0 AND t.start_date < now(),
           CASE WHEN t.i % 13 = 0 THEN t.start_date - interval '1 day' END,
           t.start_date - interval '7 days',
           t.start_date - interval '7 days'
      FROM typed t,
           (SELECT array_agg(id ORDER BY created_at DESC) AS ids FROM clients) cl,
           (SELECT array_agg(id ORDER BY email) AS ids FROM coaches) co;
  `,
  );

  // VACUUM as well as ANALYZE: a long-lived table has its visibility map set by autovacuum,
  // which index-only scans (and so counts) depend on; a freshly loaded one does not.
  await step('vacuum analyze', 'VACUUM (ANALYZE)');

  // A client in the default list (sessions open), somewhere in the middle.
  const { rows } = await client.query<{
    coach_id: string;
    client_id: string;
    telephone: string;
  }>(`
    SELECT (SELECT id FROM coaches WHERE email = 'coach01@bench.example') AS coach_id, c.id AS client_id, c.telephone
      FROM clients c WHERE c.sessions_closed_on IS NULL
     ORDER BY c.created_at DESC LIMIT 1 OFFSET 12345`);
  const fixture = rows[0]!;
  // Typed as a caller might: international form, spaces in other places.
  const digits = fixture.telephone.replace(/\D/g, '').replace(/^0/, '');
  return {
    timingsMs,
    fixtures: {
      coachId: fixture.coach_id,
      adminSubject: 'bench-admin',
      coachSubject: 'bench-coach',
      someClientId: fixture.client_id,
      phoneNumber: `+49 ${digits.slice(0, 3)} ${digits.slice(3)}`,
      insurer: 'BARMER',
      campaign: 'fruehjahr-2026',
    },
  };
}

/**
 * The loaded appointments lie mostly in the past and have no billable items yet: a server
 * started on this database spends its first minutes catching up (up to 10,000 items a minute),
 * which would be measured as every scenario's cost. A long-running server has drained that
 * backlog, so the benchmark drains it first, with the app's own job function.
 */
export async function drainBillableItems(dbUrl: string): Promise<number> {
  const started = performance.now();
  const database = connectPostgres(dbUrl, 2);
  try {
    const { CLIENT_CHANGE_NOTICE_HOURS } = loadConfig();
    for (;;) {
      const clock = { now: new Date(), changeNoticeHours: CLIENT_CHANGE_NOTICE_HOURS };
      const step = await catchUpBillableItems(database.db, clock);
      if (step.created + step.updated + step.cancelled === 0) break;
    }
  } finally {
    await database.close();
  }
  const vacuum = new pg.Client({ connectionString: dbUrl });
  await vacuum.connect();
  await vacuum.query('VACUUM (ANALYZE) billable_items');
  await vacuum.end();
  return Math.round(performance.now() - started);
}
