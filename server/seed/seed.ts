import { inTransaction } from '../db/transaction';
import { randomUUID } from 'node:crypto';
import { DEMO_PRACTICE } from './data';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import {
  appointments,
  authEmails,
  authUsers,
  availabilities,
  billingRules,
  campaigns,
  clients,
  coaches,
  events,
  insurers,
  practiceSettings,
  users,
} from '../db/schema/index';
import { generateDemoData, type GenerateOptions } from './generate';
import type { AvailabilityPlan, BillingRulePlan, DemoAccount, DemoData } from './types';
import { loadConfig, type Config } from '../config';
import { catchUpBillableItems } from '../features/billing/index';
import { billingHistory } from './billing-history';
import { planDocuments, writeDocuments } from './clinical-history';
import { demoHistory } from './history';

/** The default client change notice (config CLIENT_CHANGE_NOTICE_HOURS), for late cancellations. */
const DEMO_CHANGE_NOTICE_HOURS = 24;

export interface SeedSummary {
  counts: {
    users: number;
    coaches: number;
    clients: number;
    appointments: number;
    /** Of which in the past (ended before the seed moment). */
    pastAppointments: number;
    cancelledAppointments: number;
    insurers: number;
    campaigns: number;
    availability: number;
    billingRules: number;
    /** Items the billing job made for past demo appointments. */
    billableItems: number;
    /** Clinical documents (summaries and patient cards) the coaches signed. */
    signedDocuments: number;
    /** Invoices and cancellation invoices issued. */
    invoices: number;
    /** Business events the data implies (bookings, cancellations, signatures, invoices, …). */
    events: number;
  };
  /** The demo sign-in addresses, one per role (five coaches). */
  accounts: DemoAccount[];
  durationMs: number;
}

export interface HistoryOptions extends GenerateOptions {
  /** The server's settings, for the invoices (payment term); default: the environment's. */
  config?: Config;
}

export interface SeedOptions extends HistoryOptions {
  /** Empty every table of the public schema first (npm run seed -- --force). */
  reset?: boolean;
}

// One key for "someone is seeding": two app instances starting on one empty database
// must not both seed it.
const SEED_LOCK = sql.raw('7305016150296981');

/** Writes the German demo data set in one transaction; the tables are expected to be empty. */
export async function seed(db: Db, options: SeedOptions = {}): Promise<SeedSummary> {
  const started = performance.now();
  const summary = await inTransaction(db, async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
    if (options.reset) await truncateAll(tx);
    return insertAll(tx, generateDemoData(options), options);
  });
  return { ...summary, durationMs: Math.round(performance.now() - started) };
}

/** Seeds only a database without users (a fresh installation); null when it did nothing. */
export async function seedIfEmpty(
  db: Db,
  options: HistoryOptions = {},
): Promise<SeedSummary | null> {
  const started = performance.now();
  const summary = await inTransaction(db, async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
    const [someone] = await tx.select({ id: users.id }).from(users).limit(1);
    if (someone) return null;
    return insertAll(tx, generateDemoData(options), options);
  });
  return summary && { ...summary, durationMs: Math.round(performance.now() - started) };
}

async function insertAll(
  tx: Tx,
  data: DemoData,
  { now = new Date(), config = loadConfig(process.env) }: HistoryOptions,
): Promise<Omit<SeedSummary, 'durationMs'>> {
  // Multi-row inserts, parents first; chunks keep each statement under the bind-parameter limit.
  await insertRows(tx, coaches, data.coaches);
  // Each demo account can sign in at once: the provider knows its address as verified, so a
  // passcode login works, and the product's users row is already claimed by that identity.
  const accounts = data.users.map((user) => ({ ...user, authSubject: randomUUID() }));
  await insertRows(
    tx,
    authUsers,
    accounts.map((a) => ({ id: a.authSubject })),
  );
  await insertRows(
    tx,
    authEmails,
    accounts.map((a) => ({
      userId: a.authSubject,
      address: a.email.toLowerCase(),
      isPrimary: true,
      verified: true,
    })),
  );
  await insertRows(tx, users, accounts);
  await insertRows(tx, insurers, data.insurers);
  await insertRows(tx, campaigns, data.campaigns);
  // The demo practice: its imprint, privacy notice, invoices and e-mails.
  await tx
    .insert(practiceSettings)
    .values({ id: 1, ...DEMO_PRACTICE })
    .onConflictDoUpdate({ target: practiceSettings.id, set: DEMO_PRACTICE });
  await insertRows(tx, clients, data.clients);
  await insertRows(tx, appointments, data.appointments);
  const history = demoHistory(data, now);
  await insertRows(tx, events, history);
  const availabilityCount = await seedAvailability(tx, data.availability);
  const billingRuleCount = await seedBillingRules(tx, data.billingRules);
  // Past appointments get their items as they would in the running app: by the item job.
  const billed = await catchUpBillableItems(tx, {
    now,
    changeNoticeHours: DEMO_CHANGE_NOTICE_HOURS,
  });
  // What people did since: documents signed and reviewed, items approved, invoices sent.
  const documents = await writeDocuments(tx, data, planDocuments(data, now));
  const billing = await billingHistory(tx, data, now, config);
  const [business] = (
    (await tx.execute(
      sql`SELECT count(*)::int AS n FROM events WHERE source = 'business'`,
    )) as unknown as { rows: { n: number }[] }
  ).rows;

  const nowMs = now.getTime();
  return {
    counts: {
      users: data.users.length,
      coaches: data.coaches.length,
      clients: data.clients.length,
      appointments: data.appointments.length,
      pastAppointments: data.appointments.filter((a) => Date.parse(a.endDate) <= nowMs).length,
      cancelledAppointments: data.appointments.filter((a) => a.cancelledAt).length,
      insurers: data.insurers.length,
      campaigns: data.campaigns.length,
      availability: availabilityCount,
      billingRules: billingRuleCount,
      billableItems: billed.created,
      signedDocuments: documents.signed,
      invoices: billing.invoices,
      events: business!.n,
    },
    accounts: data.accounts,
  };
}

type Table =
  | typeof users
  | typeof coaches
  | typeof clients
  | typeof appointments
  | typeof insurers
  | typeof campaigns
  | typeof authUsers
  | typeof authEmails
  | typeof events;

async function insertRows<T extends Table>(tx: Tx, table: T, rows: T['$inferInsert'][]) {
  const columns = rows[0] ? Object.keys(rows[0]).length + 4 : 1;
  const perStatement = Math.max(1, Math.floor(30_000 / columns));
  for (let i = 0; i < rows.length; i += perStatement) {
    await tx.insert(table).values(rows.slice(i, i + perStatement) as never);
  }
}

async function truncateAll(tx: Tx) {
  const result = (await tx.execute(
    sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`,
  )) as unknown as { rows: { tablename: string }[] };
  if (result.rows.length === 0) return;
  const names = result.rows.map((r) => `"public"."${r.tablename.replace(/"/g, '""')}"`).join(', ');
  await tx.execute(sql.raw(`TRUNCATE TABLE ${names} RESTART IDENTITY CASCADE`));
}

// ---------------------------------------------------------------------------------------
// Tables of other areas: seeded when their migration has run, skipped (count 0) before, so
// a schema file that is ahead of its migration never breaks `npm start`.

async function tableExists(tx: Tx, name: string): Promise<boolean> {
  const result = (await tx.execute(
    sql`SELECT to_regclass(${`public.${name}`}) IS NOT NULL AS present`,
  )) as unknown as { rows: { present: boolean }[] };
  return result.rows[0]?.present === true;
}

/** Weekly availability per coach (RRULE FREQ=WEEKLY;BYDAY=…, Europe/Berlin wall times). */
async function seedAvailability(tx: Tx, plans: AvailabilityPlan[]): Promise<number> {
  if (plans.length === 0 || !(await tableExists(tx, 'availabilities'))) return 0;
  await tx.insert(availabilities).values(
    plans.map((p) => ({
      id: p.id,
      coachId: p.coachId,
      kind: p.kind,
      startDay: p.startDay,
      startTime: p.startTime,
      endTime: p.endTime,
      recurrence: p.recurrence,
      seriesStart: p.seriesStart,
      seriesEnd: null,
      note: p.note,
    })),
  );
  return plans.length;
}

/** Billing rules in evaluation order (position 0 first). */
async function seedBillingRules(tx: Tx, plans: BillingRulePlan[]): Promise<number> {
  if (plans.length === 0 || !(await tableExists(tx, 'billing_rules'))) return 0;
  await tx.insert(billingRules).values(plans);
  return plans.length;
}
