import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { generateDemoData, insuranceNumber } from '../../server/seed/generate';
import { demoHistory } from '../../server/seed/history';
import { seed, seedIfEmpty, type SeedSummary } from '../../server/seed/seed';
import { formatSeedSummary } from '../../server/seed/summary';
import { berlinDate } from '../../shared/time';
import { createTestDatabase } from '../../server/testing/test-database';
import { verifySignedDocuments } from '../../server/features/clinical/index';

let database: Database;
let first: SeedSummary | null;
let seededAt: Date;

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await database.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

async function count(table: string): Promise<number> {
  const [row] = await rows<{ n: number }>(sql.raw(`SELECT count(*)::int AS n FROM ${table}`));
  return row!.n;
}

beforeAll(async () => {
  database = await createTestDatabase(
    process.env.DATABASE_URL ? inject('templateDatabase') : undefined,
  );
  seededAt = new Date();
  first = await seedIfEmpty(database.db, { now: seededAt });
});

afterAll(async () => {
  await database?.close();
});

describe('demo data', () => {
  it('seeds an empty database and reports what it wrote', async () => {
    expect(first).not.toBeNull();
    const c = first!.counts;
    expect(c).toMatchObject({ users: 9, coaches: 5, clients: 200, insurers: 20, campaigns: 4 });
    expect(c.appointments).toBeGreaterThan(500);
    expect(c.pastAppointments).toBeGreaterThan(0);
    expect(c.pastAppointments).toBeLessThan(c.appointments);
    expect(await count('users')).toBe(c.users);
    expect(await count('coaches')).toBe(5);
    expect(await count('clients')).toBe(200);
    expect(await count('appointments')).toBe(c.appointments);
    expect(await count('insurers')).toBe(c.insurers);
    expect(await count('campaigns')).toBe(c.campaigns);
    // Other areas' tables: seeded once their migration exists.
    for (const [table, seeded] of [
      ['availabilities', c.availability],
      ['billing_rules', c.billingRules],
      ['billable_items', c.billableItems],
    ] as const) {
      const [present] = await rows<{ ok: boolean }>(
        sql.raw(`SELECT to_regclass('public.${table}') IS NOT NULL AS ok`),
      );
      if (present!.ok) {
        expect(seeded).toBeGreaterThan(0);
        expect(await count(table)).toBe(seeded);
      }
    }
  });

  it('places every live appointment inside its coach’s weekly availability', async () => {
    const [present] = await rows<{ ok: boolean }>(
      sql`SELECT to_regclass('public.availabilities') IS NOT NULL AS ok`,
    );
    if (!present!.ok) return;
    // Weekly rules only (BYDAY list): weekday and Berlin wall-clock window must match.
    const [outside] = await rows<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM appointments a
       WHERE a.cancelled_at IS NULL AND NOT EXISTS (
         SELECT 1 FROM availabilities v
          WHERE v.coach_id = a.coach_id AND v.kind = 'available'
            AND (a.start_date AT TIME ZONE 'Europe/Berlin')::date >= v.start_day
            AND v.recurrence LIKE '%' || (ARRAY['SU','MO','TU','WE','TH','FR','SA'])[1 + extract(dow FROM a.start_date AT TIME ZONE 'Europe/Berlin')::int] || '%'
            AND (a.start_date AT TIME ZONE 'Europe/Berlin')::time >= v.start_time
            AND (a.end_date AT TIME ZONE 'Europe/Berlin')::time <= v.end_time)`);
    expect(outside!.n).toBe(0);
  });

  it('has one active account per staff role and five coaches, each known to the sign-in provider', async () => {
    const users = await rows<{
      role: string;
      email: string;
      active: boolean;
      auth_subject: string | null;
      coach_id: string | null;
    }>(sql`SELECT role, email, active, auth_subject, coach_id FROM users ORDER BY email`);
    const byRole = (role: string) => users.filter((u) => u.role === role).map((u) => u.email);
    expect(byRole('SUPERADMIN')).toEqual(['superadmin@sprechstunde.demo']);
    expect(byRole('ADMIN')).toEqual(['admin@sprechstunde.demo']);
    expect(byRole('ONBOARDING_MANAGER')).toEqual(['onboarding@sprechstunde.demo']);
    expect(byRole('COACH')).toEqual([1, 2, 3, 4, 5].map((n) => `coach${n}@sprechstunde.demo`));
    expect(users.every((u) => u.active && u.auth_subject !== null)).toBe(true);
    const known = await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM users u JOIN auth_emails e
          ON e.user_id::text = u.auth_subject AND e.address = lower(u.email) AND e.verified AND e.is_primary`,
    );
    expect(known[0]!.n).toBe(users.length);
    expect(users.filter((u) => u.role === 'COACH').every((u) => u.coach_id)).toBe(true);
    expect(first!.accounts.map((a) => a.email).sort()).toEqual(users.map((u) => u.email).sort());
  });

  it('gives clients plausible German data, each coached by one of the coaches', async () => {
    const clients = await rows<{
      first_name: string;
      postal_code: string;
      city: string;
      telephone: string;
      year_of_birth: number;
      insurer: string;
      insurer_code: string;
      email: string | null;
      client_type: string;
      contact_person: unknown;
      rejection_reason_type: string | null;
      sessions_closed_on: string | null;
      coached_by_id: string | null;
      campaign: string | null;
    }>(sql`SELECT * FROM clients`);
    const insurers = new Set(
      (await rows<{ name: string }>(sql`SELECT name FROM insurers`)).map((r) => r.name),
    );
    const campaigns = new Set(
      (await rows<{ code: string }>(sql`SELECT code FROM campaigns`)).map((r) => r.code),
    );
    for (const c of clients) {
      expect(c.postal_code).toMatch(/^\d{5}$/);
      expect(c.telephone.replace(/\D/g, '')).toMatch(/^(0|49)\d{8,12}$/);
      expect(c.year_of_birth).toBeGreaterThanOrEqual(1935);
      expect(c.year_of_birth).toBeLessThanOrEqual(2005);
      expect(insurers.has(c.insurer)).toBe(true);
      expect(c.insurer_code).toMatch(/^[A-Z]\d{9}$/);
      expect(insuranceNumber(c.insurer_code[0]!, c.insurer_code.slice(1, 9))).toBe(c.insurer_code);
      expect(c.coached_by_id).not.toBeNull();
      if (c.campaign) expect(campaigns.has(c.campaign)).toBe(true);
      expect(c.client_type === 'relative').toBe(c.contact_person !== null);
    }
    const emails = clients.flatMap((c) => (c.email ? [c.email.toLowerCase()] : []));
    expect(new Set(emails).size).toBe(emails.length);
    expect(clients.filter((c) => c.client_type === 'relative').length).toBeGreaterThan(5);
    expect(clients.filter((c) => c.rejection_reason_type).length).toBeGreaterThan(5);
    expect(clients.filter((c) => c.sessions_closed_on).length).toBeGreaterThan(5);
    const ik = await rows<{ ik_number: string }>(sql`SELECT ik_number FROM insurers`);
    expect(ik.every((r) => /^\d{9}$/.test(r.ik_number))).toBe(true);
  });

  it('never lets two live appointments of a coach overlap', async () => {
    const [overlaps] = await rows<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM appointments a JOIN appointments b
        ON a.coach_id = b.coach_id AND a.id < b.id
       AND tstzrange(a.start_date, a.end_date) && tstzrange(b.start_date, b.end_date)
       WHERE a.cancelled_at IS NULL AND b.cancelled_at IS NULL`);
    expect(overlaps!.n).toBe(0);
  });

  it('numbers each client’s appointments 1..n in the order they happen', async () => {
    const perClient = await rows<{ numbers: number[]; by_start: number[] }>(sql`
      SELECT array_agg(appointment_number ORDER BY appointment_number) AS numbers,
             array_agg(appointment_number ORDER BY start_date) AS by_start
        FROM appointments GROUP BY client_id`);
    expect(perClient.length).toBeGreaterThan(150);
    for (const { numbers, by_start } of perClient) {
      expect(numbers).toEqual(numbers.map((_, i) => i + 1));
      expect(by_start).toEqual(numbers);
    }
  });

  it('has past and future appointments with unique meeting codes and hidden rooms', async () => {
    const appointments = await rows<{
      meeting_code_coach: string;
      meeting_code_client: string;
      video_room: string;
      start_date: string;
      created_at: string;
      cancelled_at: string | null;
      appointment_type: string;
    }>(sql`SELECT meeting_code_coach, meeting_code_client, video_room, start_date::text, created_at::text,
                  cancelled_at::text, appointment_type FROM appointments`);
    const code = /^[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}-[0-9a-hjkmnp-tv-z]{4}$/;
    const codes = appointments.flatMap((a) => [a.meeting_code_coach, a.meeting_code_client]);
    expect(codes.every((c) => code.test(c))).toBe(true);
    expect(new Set(codes).size).toBe(codes.length);
    expect(appointments.every((a) => !codes.includes(a.video_room))).toBe(true);
    const now = seededAt.getTime();
    expect(appointments.some((a) => Date.parse(a.start_date) < now)).toBe(true);
    expect(appointments.some((a) => Date.parse(a.start_date) > now)).toBe(true);
    expect(appointments.every((a) => Date.parse(a.created_at) <= now)).toBe(true);
    expect(
      appointments.every(
        (a) => !a.cancelled_at || Date.parse(a.cancelled_at) >= Date.parse(a.created_at),
      ),
    ).toBe(true);
    const types = new Set(appointments.map((a) => a.appointment_type));
    for (const type of ['initial', 'first', 'followup']) expect(types.has(type)).toBe(true);
  });

  it('records the business events its data implies, none after the seed moment', async () => {
    const byType = new Map(
      (
        await rows<{ type: string; n: number; latest: string }>(sql`
          SELECT type, count(*)::int AS n, max(occurred_at)::text AS latest FROM events
           WHERE source = 'business' GROUP BY type`)
      ).map((r) => [r.type, r]),
    );
    const n = (type: string) => byType.get(type)?.n ?? 0;
    expect(n('client.created')).toBe(200);
    expect(n('coach.created')).toBe(5);
    expect(n('appointment.created')).toBe(first!.counts.appointments);
    expect(n('appointment.cancelled')).toBe(first!.counts.cancelledAppointments);
    for (const type of [
      'appointment.rescheduled',
      'appointment.updated',
      'meeting.finished',
      'client.sessions_closed',
    ]) {
      expect(n(type), type).toBeGreaterThan(0);
    }
    expect([...byType.values()].every((r) => Date.parse(r.latest) <= seededAt.getTime())).toBe(
      true,
    );
    const [noShows] = await rows<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM appointments a
       WHERE a.no_show AND EXISTS (SELECT 1 FROM events e WHERE e.appointment_id = a.id
         AND e.type = 'appointment.updated' AND e.changes->'noShow'->>'to' = 'true')`);
    const [allNoShows] = await rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM appointments WHERE no_show`,
    );
    expect(noShows!.n).toBe(allNoShows!.n);
    expect(first!.counts.events).toBe([...byType.values()].reduce((sum, r) => sum + r.n, 0));
  });

  it('holds signed clinical documents, each with its signer and date, verified, and each summary with its event', async () => {
    const docs = await rows<{
      kind: string;
      id: string;
      status: string;
      signed_by: string | null;
      coach_user: string | null;
      signed_at: string | null;
      completed_at: string | null;
      end_date: string;
    }>(sql`
      SELECT 'summary' AS kind, d.id, d.status, d.signed_by_id AS signed_by, u.id AS coach_user,
             d.signed_at::text, d.completed_at::text, a.end_date::text
        FROM appointment_summaries d JOIN appointments a ON a.id = d.appointment_id
        LEFT JOIN users u ON u.coach_id = d.coach_id
      UNION ALL
      SELECT 'patient_card', d.id, d.status, d.signed_by_id, u.id, d.signed_at::text,
             d.completed_at::text, a.end_date::text
        FROM patient_cards d JOIN appointments a ON a.id = d.appointment_id
        LEFT JOIN users u ON u.coach_id = d.coach_id`);
    const signed = docs.filter((d) => d.signed_at !== null);
    expect(first!.counts.signedDocuments).toBe(signed.length);
    for (const kind of ['summary', 'patient_card']) {
      const of = docs.filter((d) => d.kind === kind);
      expect(of.filter((d) => d.status === 'completed').length, kind).toBeGreaterThan(10);
      // A few signed ones wait on /review, and a few are drafts.
      expect(of.filter((d) => d.status === 'sent').length, kind).toBeGreaterThan(0);
      expect(of.filter((d) => d.status === 'sent').length, kind).toBeLessThanOrEqual(4);
      expect(of.filter((d) => d.status === 'new').length, kind).toBeGreaterThan(0);
    }
    for (const d of signed) {
      // Signed by the appointment's coach after it ended, before the seed moment.
      expect(d.signed_by).toBe(d.coach_user);
      expect(Date.parse(d.signed_at!)).toBeGreaterThan(Date.parse(d.end_date));
      expect(Date.parse(d.signed_at!)).toBeLessThanOrEqual(seededAt.getTime());
      if (d.completed_at)
        expect(Date.parse(d.completed_at)).toBeGreaterThan(Date.parse(d.signed_at!));
    }
    expect(await verifySignedDocuments(database.db)).toEqual({
      documents: signed.length,
      amendments: 0,
      broken: [],
    });
    // Every signed summary is a business event at its signing time, by its signer.
    const [unmatched] = await rows<{ missing: number; extra: number }>(sql`
      SELECT
        (SELECT count(*)::int FROM appointment_summaries s WHERE s.signed_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM events e WHERE e.type = 'summary.signed'
            AND e.entity_id = s.id AND e.occurred_at = s.signed_at
            AND e.actor_user_id = s.signed_by_id AND e.appointment_id = s.appointment_id)) AS missing,
        (SELECT count(*)::int FROM events e WHERE e.type = 'summary.signed'
          AND NOT EXISTS (SELECT 1 FROM appointment_summaries s WHERE s.id = e.entity_id)) AS extra`);
    expect(unmatched).toEqual({ missing: 0, extra: 0 });
  });

  it('holds numbered invoices, sent and not yet sent, one cancelled by its cancellation invoice, each with its events', async () => {
    const invoices = await rows<{
      id: string;
      number: string;
      kind: string;
      status: string;
      payer_kind: string;
      invoice_date: string;
      sent_at: string | null;
      cancels_invoice_id: string | null;
      created_at: string;
    }>(sql`SELECT id, number, kind, status, payer_kind, invoice_date::text, sent_at::text,
                  cancels_invoice_id, created_at::text FROM invoices ORDER BY year, sequence`);
    expect(first!.counts.invoices).toBe(invoices.length);
    expect(invoices.length).toBeGreaterThanOrEqual(5);
    for (const [i, invoice] of invoices.entries()) {
      expect(invoice.number).toMatch(/^\d{4}-\d{5}$/);
      expect(Date.parse(invoice.created_at)).toBeLessThanOrEqual(seededAt.getTime());
      // Numbers rise with the invoice dates (gapless, in the order they were issued).
      if (i > 0) expect(invoice.invoice_date >= invoices[i - 1]!.invoice_date).toBe(true);
    }
    const status = (s: string) => invoices.filter((i) => i.status === s);
    expect(status('sent').length).toBeGreaterThan(0);
    expect(status('issued').length).toBeGreaterThan(0);
    expect(invoices.some((i) => i.payer_kind === 'client')).toBe(true);
    expect(invoices.some((i) => i.payer_kind !== 'client')).toBe(true);
    const [cancelled] = status('cancelled');
    expect(status('cancelled')).toHaveLength(1);
    const storno = invoices.find((i) => i.cancels_invoice_id === cancelled!.id);
    expect(storno?.kind).toBe('cancellation');

    const byInvoice = await rows<{ entity_id: string; type: string; occurred_at: string }>(sql`
      SELECT entity_id, type, occurred_at::text FROM events
       WHERE source = 'business' AND type LIKE 'invoice.%'`);
    const eventsOf = (id: string, type: string) =>
      byInvoice.filter((e) => e.entity_id === id && e.type === type);
    for (const invoice of invoices) {
      // Issued by a run (a cancellation invoice is written by the cancellation's own event).
      expect(eventsOf(invoice.id, 'invoice.issued'), invoice.number).toHaveLength(
        invoice.kind === 'invoice' ? 1 : 0,
      );
      expect(eventsOf(invoice.id, 'invoice.sent'), invoice.number).toHaveLength(
        invoice.sent_at ? 1 : 0,
      );
      if (invoice.sent_at)
        expect(Date.parse(eventsOf(invoice.id, 'invoice.sent')[0]!.occurred_at)).toBe(
          Date.parse(invoice.sent_at),
        );
    }
    expect(eventsOf(cancelled!.id, 'invoice.cancelled')).toHaveLength(1);
    expect(byInvoice.filter((e) => e.type === 'invoice.cancelled')).toHaveLength(1);
    expect(byInvoice.every((e) => Date.parse(e.occurred_at) <= seededAt.getTime())).toBe(true);

    // Items: every invoiced item was approved first (its event), sent ones are invoice_sent.
    const [items] = await rows<{
      unapproved: number;
      unsent: number;
      approved_events: number;
      approved: number;
    }>(sql`
      SELECT
        (SELECT count(*)::int FROM invoice_items ii WHERE NOT EXISTS (
           SELECT 1 FROM events e WHERE e.type = 'billable_item.approved'
              AND e.entity_id = ii.billable_item_id)) AS unapproved,
        (SELECT count(*)::int FROM invoice_items ii JOIN invoices v ON v.id = ii.invoice_id
           JOIN billable_items b ON b.id = ii.billable_item_id
          WHERE ii.live AND v.status = 'sent' AND b.status <> 'invoice_sent') AS unsent,
        (SELECT count(*)::int FROM events WHERE type = 'billable_item.approved') AS approved_events,
        (SELECT count(*)::int FROM billable_items WHERE approved_at IS NOT NULL) AS approved`);
    expect(items).toMatchObject({ unapproved: 0, unsent: 0 });
    expect(items!.approved_events).toBe(items!.approved);
    // Nothing approved waits outside an invoice: a run now has nothing left over from the seed.
    const [due] = await rows<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM billable_items b WHERE b.status = 'approved'
         AND NOT EXISTS (SELECT 1 FROM invoice_items ii WHERE ii.billable_item_id = b.id AND ii.live)`);
    expect(due!.n).toBe(0);
  });

  it('books no appointment on a public holiday of the practice’s state', () => {
    // Seeded a week before Christmas: the plan spans 25./26.12., New Year and Good Friday.
    const data = generateDemoData({ now: new Date('2026-12-18T08:00:00Z'), holidayState: 'BE' });
    const days = new Set(data.appointments.map((a) => berlinDate(a.startDate).toString()));
    expect(days.has('2026-12-24')).toBe(true);
    expect(days.has('2026-12-28')).toBe(true);
    for (const holiday of ['2026-12-25', '2026-12-26', '2027-01-01']) {
      expect(days.has(holiday), holiday).toBe(false);
    }
  });

  it('does nothing the second time', async () => {
    const before = await count('appointments');
    expect(await seedIfEmpty(database.db)).toBeNull();
    expect(await count('users')).toBe(first!.counts.users);
    expect(await count('appointments')).toBe(before);
  });

  it('resets and seeds again on request (npm run seed -- --force)', async () => {
    const again = await seed(database.db, { reset: true });
    expect(again.counts.clients).toBe(200);
    expect(await count('clients')).toBe(200);
    expect(await count('users')).toBe(again.counts.users);
    expect(await count('appointments')).toBe(again.counts.appointments);
  });

  it('records a no-show that ended minutes before the seed moment', () => {
    const data = generateDemoData({ now: new Date('2026-03-02T09:00:00Z') });
    const noShow = data.appointments.find((a) => a.noShow)!;
    // Seeded ten minutes after it ended: the coach has marked it by then.
    const at = new Date(Date.parse(noShow.endDate as string) + 10 * 60_000);
    const marks = demoHistory(data, at).filter(
      (e) => e.appointmentId === noShow.id && e.type === 'appointment.updated',
    );
    expect(marks).toHaveLength(1);
    expect(Date.parse(marks[0]!.occurredAt as string)).toBeLessThanOrEqual(at.getTime());
  });

  it('is deterministic apart from the random meeting codes', () => {
    const now = new Date('2026-03-02T09:00:00Z');
    const a = generateDemoData({ now });
    const b = generateDemoData({ now });
    const strip = (d: typeof a) => ({
      ...d,
      appointments: d.appointments.map(
        ({ meetingCodeCoach: _coach, meetingCodeClient: _client, videoRoom: _room, ...rest }) =>
          rest,
      ),
    });
    expect(strip(a)).toEqual(strip(b));
    expect(a.appointments[0]!.meetingCodeCoach).not.toBe(b.appointments[0]!.meetingCodeCoach);
  });

  it('prints German sign-in instructions for every role', () => {
    const text = formatSeedSummary(first!);
    expect(text).toContain('So melden Sie sich an');
    for (const account of first!.accounts) expect(text).toContain(account.email);
    expect(text).toContain('Entwicklungs-Postfach');
  });
});
