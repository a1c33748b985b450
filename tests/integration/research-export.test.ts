import { createHash, createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, coaches, events } from '../../server/db/schema/index';
import { startResearchExport } from '../../server/features/research/export';
import { DEVELOPMENT_RESEARCH_KEY } from '../../server/features/research/key';
import type { Api } from '../support/api';
import { createApi } from '../support/api';
import { csvRecords, parseCsv, unzip } from '../support/unzip';
import { expectProblem, expectStatus } from './fixtures';

// The research export. A ZIP of the consenting clients only, pseudonymised,
// generalised, k-anonymous on the quasi-identifiers, with codebook and manifest.

let api: Api;
let admin: { authorization: string; userId: string };
let coachId: string;

const pseudonymOf = (id: string, key = DEVELOPMENT_RESEARCH_KEY) =>
  createHmac('sha256', key).update(`client:${id}`).digest('hex').slice(0, 16);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let n = 0;
/** A client with every identifying field filled, so a leak would show in the bytes. */
async function insertClient(fields: Partial<typeof clients.$inferInsert>) {
  n++;
  const [row] = await api.database.db
    .insert(clients)
    .values({
      firstName: `Erika${n}`,
      lastName: 'Mustermann-Forschung',
      email: `forschung-${n}@example.test`,
      telephone: `+49 30 555010${n}`,
      additionalTelephoneNumbers: `0171 987650${n}`,
      street: 'Geheimweg 12',
      city: 'Geheimstadt',
      insurerCode: `A12345678${n % 10}`,
      notes: 'Vertrauliche Notiz',
      diagnosis: 'F32.1 Verdacht',
      howDidYouHearAboutUs: 'Freitext über die Nachbarin',
      createdAt: '2026-01-10T09:00:00.000Z',
      wantsToProvideRecordingsForResearch: true,
      ...fields,
    })
    .returning();
  return row!;
}

let slot = 0;
async function insertAppointment(
  clientId: string,
  startDate: string,
  minutes: number,
  fields: Partial<typeof appointments.$inferInsert> = {},
) {
  slot++;
  const end = new Date(new Date(startDate).getTime() + minutes * 60_000).toISOString();
  await api.database.db.insert(appointments).values({
    clientId,
    coachId,
    startDate,
    endDate: end,
    appointmentType: 'followup',
    meetingCodeCoach: `rc-${slot}`,
    meetingCodeClient: `rk-${slot}`,
    videoRoom: `room-${slot}`,
    appointmentNumber: slot,
    ...fields,
  });
}

const ids = {
  groupA: [] as string[],
  groupB: [] as string[],
  groupC: [] as string[],
  rare: '',
  lateSignUp: '',
  declined: [] as string[],
};

async function download(as: { authorization: string } | null = admin) {
  const res = await api.app.inject({
    method: 'GET',
    url: '/api/admin/export-research-data',
    headers: as ? { authorization: as.authorization } : {},
  });
  return res;
}

let zip: Buffer;
let files: Map<string, Buffer>;
let participants: Array<Record<string, string>>;
let appointmentRows: Array<Record<string, string>>;
let manifest: {
  exportedAt: string;
  counts: { participants: number; appointments: number };
  kAnonymity: { k: number; quasiIdentifiers: string[]; achieved: boolean; suppressedCells: number };
  files: Array<{ name: string; bytes: number; sha256: string }>;
};

beforeAll(async () => {
  api = await createApi();
  admin = await api.signIn('ADMIN');
  const [coach] = await api.database.db
    .insert(coaches)
    .values({ firstName: 'Carla', lastName: 'Coach', email: 'carla@coach.test' })
    .returning();
  coachId = coach!.id;

  // A: six people alike on every quasi-identifier (1980-1984, region 10, self, BARMER).
  const postal = ['10115', '10245', '10999', '10117', '10178', '10435'];
  for (const [i, code] of postal.entries()) {
    const c = await insertClient({
      yearOfBirth: 1980 + Math.min(i, 4),
      postalCode: code,
      clientType: 'self',
      insurer: 'BARMER',
      campaign: '=HYPERLINK("http://x.test","klick")',
      ...(i === 1 ? { createdAt: '2026-01-10T23:30:00.000Z' } : {}),
    });
    ids.groupA.push(c.id);
  }
  ids.lateSignUp = ids.groupA[1]!;
  // B: five relatives of one band and insurer, each in another region → region blanked.
  for (const [i, code] of ['20095', '30159', '40210', '50667', '60311'].entries()) {
    const c = await insertClient({
      yearOfBirth: 1990 + i,
      postalCode: code,
      clientType: 'relative',
      insurer: 'AOK Nordost',
      paidBySponsor: true,
      // Closed after 22 to 84 days: one band; the exact counts (nearly unique) are not released.
      sessionsClosedOn: `${['2026-02-01', '2026-02-21', '2026-03-13', '2026-03-19', '2026-04-04'][i]}T10:00:00.000Z`,
    });
    ids.groupB.push(c.id);
  }
  // C and the rare one: alike only in being "self" without a sponsor → everything else
  // blanked. The four of C share a campaign: with it they would be a group of four.
  for (const [i, year] of [1960, 1965, 1970, 2000].entries()) {
    const c = await insertClient({
      yearOfBirth: year,
      postalCode: `${70 + i}123`,
      clientType: 'self',
      insurer: i === 0 ? '@Kasse' : `Kasse ${i}`,
      campaign: 'fruehjahr-2026',
    });
    ids.groupC.push(c.id);
  }
  const rare = await insertClient({
    yearOfBirth: 1950,
    postalCode: '80331',
    clientType: 'self',
    insurer: 'TK',
    mentalStressIndicator: 7,
    sessionsClosedOn: '2026-03-01T10:00:00.000Z',
  });
  ids.rare = rare.id;
  // Two who did not consent (one with a combination that would fit group A).
  for (const yearOfBirth of [1982, 1955]) {
    const c = await insertClient({
      yearOfBirth,
      postalCode: '10115',
      insurer: 'BARMER',
      firstName: 'Nichtforschung',
      wantsToProvideRecordingsForResearch: false,
    });
    ids.declined.push(c.id);
    await insertAppointment(c.id, `2026-01-1${ids.declined.length}T12:00:00.000Z`, 30);
  }

  const a1 = ids.groupA[0]!;
  // Signed up 2026-01-10 10:00 Berlin.
  await insertAppointment(a1, '2026-01-12T09:00:00.000Z', 30, { appointmentType: 'initial' });
  await insertAppointment(a1, '2026-01-20T09:00:00.000Z', 60, {
    appointmentType: 'first',
    noShow: true,
  });
  await insertAppointment(a1, '2026-02-01T09:00:00.000Z', 50, {
    cancelledAt: '2026-01-25T09:00:00.000Z',
  });
  await insertAppointment(a1, '2030-01-10T09:00:00.000Z', 50);
  await insertAppointment(a1, '2026-02-02T09:00:00.000Z', 30, {
    isProvisional: true,
    provisionalUntil: '2026-02-01T09:00:00.000Z',
  });
  // Signed up 2026-01-11 00:30 Berlin: an appointment that morning is day 0, not day 1.
  await insertAppointment(ids.lateSignUp, '2026-01-11T08:00:00.000Z', 30, {
    appointmentType: 'initial',
  });
  await insertAppointment(ids.rare, '2026-01-15T09:00:00.000Z', 30, { appointmentType: 'initial' });

  const res = await download();
  expectStatus({ status: res.statusCode, body: res.body, headers: res.headers }, 200);
  zip = res.rawPayload;
  files = unzip(zip);
  participants = csvRecords(files.get('participants.csv')!.toString('utf8'));
  appointmentRows = csvRecords(files.get('appointments.csv')!.toString('utf8'));
  manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
  // Generous: the embedded database starts slowly on a busy machine.
}, 180_000);
afterAll(() => api?.close());

describe('GET /admin/export-research-data', () => {
  it('answers a ZIP named for the day, with the four files', async () => {
    const res = await download();
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="forschungsdaten-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
    expect([...files.keys()]).toEqual([
      'participants.csv',
      'appointments.csv',
      'codebook.csv',
      'manifest.json',
    ]);
  });

  it('holds only the clients who consented, under stable pseudonyms that are not their ids', async () => {
    const consenting = [...ids.groupA, ...ids.groupB, ...ids.groupC, ids.rare];
    expect(participants.map((p) => p.pseudonym).sort()).toEqual(
      consenting.map((id) => pseudonymOf(id)).sort(),
    );
    for (const id of ids.declined) {
      expect(zip.includes(pseudonymOf(id))).toBe(false);
      expect(files.get('appointments.csv')!.toString()).not.toContain(pseudonymOf(id));
    }
    const text = [...files.values()].map((f) => f.toString('utf8')).join('\n');
    for (const id of [...consenting, ...ids.declined]) {
      expect(text).not.toContain(id);
      expect(pseudonymOf(id)).toMatch(/^[0-9a-f]{16}$/);
    }
    // A second export gives everyone the same pseudonym.
    const again = csvRecords(
      unzip((await download()).rawPayload)
        .get('participants.csv')!
        .toString('utf8'),
    );
    expect(again.map((p) => p.pseudonym)).toEqual(participants.map((p) => p.pseudonym));
  });

  it('carries no names, contact data, insurance numbers, notes or free text', () => {
    const raw = [zip, ...files.values()].map((b) => b.toString('utf8')).join('\n');
    for (const leak of [
      'Erika',
      'Mustermann',
      'Nichtforschung',
      'example.test',
      '555010',
      '987650',
      'Geheimweg',
      'Geheimstadt',
      'A12345678',
      'Vertrauliche',
      'F32.1',
      'Nachbarin',
      'room-',
    ]) {
      expect(raw, leak).not.toContain(leak);
    }
  });

  it('writes birth years as five-year bands and postal codes as their region', () => {
    const a = participants.find((p) => p.pseudonym === pseudonymOf(ids.groupA[0]!))!;
    expect(a).toMatchObject({
      birth_band: '1980-1984',
      postal_region: '10',
      client_type: 'self',
      insurer: 'BARMER',
    });
    for (const p of participants) {
      expect(p.birth_band).toMatch(/^(\d{4}-\d{4}|unknown|)$/);
      if (p.birth_band)
        expect(Number(p.birth_band.slice(5)) - Number(p.birth_band.slice(0, 4))).toBe(4);
      expect(p.postal_region).toMatch(/^(\d{2}|unknown|)$/);
    }
    const b = participants.find((p) => p.pseudonym === pseudonymOf(ids.groupB[2]!))!;
    expect(b).toMatchObject({
      birth_band: '1990-1994',
      postal_region: '',
      client_type: 'relative',
      paid_by_sponsor: 'true',
    });
  });

  it('makes every combination of the quasi-identifiers shared by at least 5, and counts the blanked cells', () => {
    const quasi = [
      'birth_band',
      'postal_region',
      'client_type',
      'insurer',
      'campaign',
      'paid_by_sponsor',
      'sessions_closed',
      'days_to_sessions_closed',
    ];
    expect(manifest.kAnonymity).toMatchObject({ k: 5, quasiIdentifiers: quasi, achieved: true });
    const groups = new Map<string, number>();
    let blanks = 0;
    for (const p of participants) {
      const key = quasi.map((q) => p[q]).join('|');
      groups.set(key, (groups.get(key) ?? 0) + 1);
      blanks += quasi.filter((q) => p[q] === '').length;
    }
    for (const [key, count] of groups) expect(count, key).toBeGreaterThanOrEqual(5);
    // Group B lost its region (5 cells); group C and the rare one everything but client type
    // and sponsor (6 cells each, the closure being two). Group A's open coachings have no day band (6).
    expect(blanks).toBe(5 + 30 + 6);
    expect(manifest.kAnonymity.suppressedCells).toBe(35);
    const rare = participants.find((p) => p.pseudonym === pseudonymOf(ids.rare))!;
    expect(rare).toMatchObject({
      birth_band: '',
      postal_region: '',
      insurer: '',
      campaign: '',
      sessions_closed: '',
      days_to_sessions_closed: '',
      client_type: 'self',
      paid_by_sponsor: 'false',
    });
  });

  it('is k-anonymous over every combination of the released columns that can single someone out', () => {
    const book = csvRecords(files.get('codebook.csv')!.toString('utf8')).filter(
      (r) => r.file === 'participants.csv',
    );
    const role = (name: string) => book.find((r) => r.variable === name)!.role;
    // Every released column has a role; the ones that are not quasi-identifiers are named here,
    // so a new column is a decision, not an oversight.
    const measurements = Object.keys(participants[0]!).filter((c) => role(c) === 'measurement');
    expect(measurements).toEqual([
      'mental_stress_indicator',
      ...Object.keys(participants[0]!).filter((c) => c.startsWith('appointments_')),
      'no_shows',
      'cancellations',
    ]);
    const quasi = Object.keys(participants[0]!).filter((c) => role(c) === 'quasi-identifier');
    expect(Object.keys(participants[0]!)).toHaveLength(1 + measurements.length + quasi.length);
    expect(role('pseudonym')).toBe('key');
    // Every subset, not only the whole: a blank is a value like any other.
    for (let mask = 1; mask < 1 << quasi.length; mask++) {
      const columns = quasi.filter((_, i) => mask & (1 << i));
      const groups = new Map<string, number>();
      for (const p of participants) {
        const key = columns.map((c) => p[c]).join('|');
        groups.set(key, (groups.get(key) ?? 0) + 1);
      }
      expect(Math.min(...groups.values()), columns.join('+')).toBeGreaterThanOrEqual(5);
    }
    // The campaign of four is not released; the one of six is.
    for (const id of ids.groupC) {
      expect(participants.find((p) => p.pseudonym === pseudonymOf(id))!.campaign).toBe('');
    }
    expect(new Set(participants.map((p) => p.campaign))).toEqual(
      new Set(['', 'none', `'=HYPERLINK("http://x.test","klick")`]),
    );
    // Days to the close only in bands.
    for (const p of participants)
      expect(p.days_to_sessions_closed).toMatch(/^(0-89|90-179|180-364|365\+|)$/);
    for (const id of ids.groupB) {
      expect(participants.find((p) => p.pseudonym === pseudonymOf(id))).toMatchObject({
        sessions_closed: 'true',
        days_to_sessions_closed: '0-89',
      });
    }
  });

  it('turns dates into day offsets from the sign-up (Berlin days) and counts appointments by type and outcome', () => {
    const mine = (id: string) => appointmentRows.filter((r) => r.pseudonym === pseudonymOf(id));
    expect(mine(ids.groupA[0]!)).toEqual([
      {
        pseudonym: pseudonymOf(ids.groupA[0]!),
        seq: '1',
        day_offset: '2',
        appointment_type: 'initial',
        outcome: 'held',
        duration_min: '30',
      },
      {
        pseudonym: pseudonymOf(ids.groupA[0]!),
        seq: '2',
        day_offset: '10',
        appointment_type: 'first',
        outcome: 'no_show',
        duration_min: '60',
      },
      {
        pseudonym: pseudonymOf(ids.groupA[0]!),
        seq: '3',
        day_offset: '22',
        appointment_type: 'followup',
        outcome: 'cancelled',
        duration_min: '50',
      },
      {
        pseudonym: pseudonymOf(ids.groupA[0]!),
        seq: '4',
        day_offset: '1461',
        appointment_type: 'followup',
        outcome: 'scheduled',
        duration_min: '50',
      },
    ]);
    expect(mine(ids.lateSignUp).map((r) => r.day_offset)).toEqual(['0']);
    expect(appointmentRows).toHaveLength(6);
    const a = participants.find((p) => p.pseudonym === pseudonymOf(ids.groupA[0]!))!;
    expect(a).toMatchObject({
      appointments_initial: '1',
      appointments_first: '1',
      appointments_followup: '1',
      no_shows: '1',
      cancellations: '1',
      sessions_closed: 'false',
      days_to_sessions_closed: '',
    });
    const rare = participants.find((p) => p.pseudonym === pseudonymOf(ids.rare))!;
    expect(rare).toMatchObject({ mental_stress_indicator: '7' });
    expect(JSON.stringify(files.get('appointments.csv')!.toString())).not.toMatch(
      /20(26|30)-\d\d-\d\d/,
    );
  });

  it('writes RFC 4180 CSV and defuses cells a spreadsheet would run as a formula', () => {
    const text = files.get('participants.csv')!.toString('utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text).toContain(`,"'=HYPERLINK(""http://x.test"",""klick"")",`);
    const a = participants.find((p) => p.pseudonym === pseudonymOf(ids.groupA[0]!))!;
    expect(a.campaign).toBe(`'=HYPERLINK("http://x.test","klick")`);
    // Every row has as many cells as the header.
    const rows = parseCsv(text);
    for (const row of rows) expect(row).toHaveLength(rows[0]!.length);
  });

  it('explains every column in German and English in the codebook', () => {
    const book = csvRecords(files.get('codebook.csv')!.toString('utf8'));
    const columns = (file: string) =>
      Object.keys((file === 'participants.csv' ? participants : appointmentRows)[0]!);
    for (const file of ['participants.csv', 'appointments.csv']) {
      expect(book.filter((r) => r.file === file).map((r) => r.variable)).toEqual(columns(file));
    }
    for (const row of book) {
      expect(row.description_de?.length, row.variable).toBeGreaterThan(10);
      expect(row.description_en?.length, row.variable).toBeGreaterThan(10);
    }
  });

  it('has a manifest with the counts and the SHA-256 of each other file', () => {
    expect(manifest.counts).toEqual({ participants: 16, appointments: 6 });
    expect(manifest.files.map((f) => f.name)).toEqual([
      'participants.csv',
      'appointments.csv',
      'codebook.csv',
    ]);
    for (const f of manifest.files) {
      expect(f.sha256, f.name).toBe(sha256(files.get(f.name)!));
      expect(f.bytes, f.name).toBe(files.get(f.name)!.length);
    }
  });

  it('writes the same files whatever the page size of the reads', async () => {
    const now = new Date(manifest.exportedAt);
    const read = async (pageRows: number) => {
      const run = await startResearchExport(api.database.db, {
        key: DEVELOPMENT_RESEARCH_KEY,
        now,
        pageRows,
      });
      const chunks: Buffer[] = [];
      for await (const chunk of run.stream) chunks.push(chunk as Buffer);
      return unzip(Buffer.concat(chunks));
    };
    const small = await read(2);
    for (const name of ['participants.csv', 'appointments.csv', 'manifest.json']) {
      expect(small.get(name)!.toString(), name).toBe(files.get(name)!.toString());
    }
  });

  it('is recorded as a business event: who, when, how many', async () => {
    const rows = await api.database.db
      .select()
      .from(events)
      .where(eq(events.type, 'research.exported'));
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows[0]).toMatchObject({
      source: 'business',
      entityType: 'research_export',
      actorUserId: admin.userId,
      changes: { participants: 16, appointments: 6, suppressedCells: 35 },
    });
    expect(String(rows[0]!.changes.fileName)).toMatch(/^forschungsdaten-\d{4}-\d{2}-\d{2}\.zip$/);
  });

  it('is for admins and superadmins only', async () => {
    for (const role of ['COACH', 'ONBOARDING_MANAGER', 'NONE'] as const) {
      const caller = await api.signIn(role);
      expectProblem(await api.call('GET', '/api/admin/export-research-data', { as: caller }), 403);
      expectProblem(
        await api.call('GET', '/api/admin/research-export/summary', { as: caller }),
        403,
      );
    }
    expectProblem(await api.call('GET', '/api/admin/export-research-data'), 401);
    const superadmin = await api.signIn('SUPERADMIN');
    expect((await download(superadmin)).statusCode).toBe(200);
  });

  it('uses the configured key, and refuses in production without one (409)', async () => {
    const config = api.config as {
      -readonly [K in keyof typeof api.config]: (typeof api.config)[K];
    };
    const saved = { ...config };
    try {
      config.RESEARCH_PSEUDONYM_KEY = 'a-configured-research-key-0123456789abcdef';
      const keyed = csvRecords(
        unzip((await download()).rawPayload)
          .get('participants.csv')!
          .toString('utf8'),
      );
      expect(keyed.map((p) => p.pseudonym)).toContain(
        pseudonymOf(ids.rare, config.RESEARCH_PSEUDONYM_KEY),
      );
      expect(keyed.map((p) => p.pseudonym)).not.toContain(pseudonymOf(ids.rare));

      config.RESEARCH_PSEUDONYM_KEY = undefined;
      config.NODE_ENV = 'production';
      expectProblem(
        await api.call('GET', '/api/admin/export-research-data', { as: admin }),
        409,
        'research_key_missing',
      );
      const summary = await api.call('GET', '/api/admin/research-export/summary', { as: admin });
      expect(summary.body.keyConfigured).toBe(false);
    } finally {
      Object.assign(config, saved);
    }
  });
});

describe('GET /admin/research-export/summary', () => {
  it('counts the consenting clients and their appointments (no provisional holds)', async () => {
    const res = await api.call('GET', '/api/admin/research-export/summary', { as: admin });
    expectStatus(res, 200);
    expect(res.body).toEqual({ participants: 16, appointments: 6, keyConfigured: true });
  });
});
