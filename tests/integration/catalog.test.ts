import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { billingRules, campaigns, clients, events, insurers } from '../../server/db/schema/index';
import { createApi, type Api } from '../support/api';
import { expectStatus, SOME_ID, type Caller } from './fixtures';

let api: Api;
let admin: Caller;
let coach: Caller;
let manager: Caller;

beforeAll(async () => {
  api = await createApi();
  admin = await api.signIn('ADMIN');
  coach = await api.signIn('COACH');
  manager = await api.signIn('ONBOARDING_MANAGER');
});
afterAll(() => api.close());

describe('GET /api/admin/insurers', () => {
  it('is empty on a fresh database', async () => {
    const res = await api.call('GET', '/api/admin/insurers', { as: admin });
    expectStatus(res, 200);
    expect(res.body).toEqual({ insurers: [] });
  });

  it('lists active insurers first, each group by name', async () => {
    await api.database.db.insert(insurers).values([
      { name: 'Techniker Krankenkasse', ikNumber: '101575519', active: true },
      { name: 'BARMER', ikNumber: '104940005', active: false },
      { name: 'AOK Bayern', ikNumber: '108310400', active: true },
      { name: 'Alte BKK', ikNumber: '100000001', active: false },
      { name: 'DAK-Gesundheit', ikNumber: '105830016', active: true },
    ]);
    for (const as of [admin, coach, manager]) {
      const res = await api.call('GET', '/api/admin/insurers', { as });
      expectStatus(res, 200);
      expect(res.body.insurers.map((i: any) => [i.name, i.active])).toEqual([
        ['AOK Bayern', true],
        ['DAK-Gesundheit', true],
        ['Techniker Krankenkasse', true],
        ['Alte BKK', false],
        ['BARMER', false],
      ]);
    }
    const res = await api.call('GET', '/api/admin/insurers', { as: admin });
    expect(res.body.insurers[0]).toEqual({
      id: expect.any(String),
      name: 'AOK Bayern',
      ikNumber: '108310400',
      active: true,
      street: null,
      postalCode: null,
      city: null,
      country: 'DE',
      invoiceEmail: null,
    });
  });
});

describe('GET /api/client/signup/insurers (public)', () => {
  it('offers the active insurers by name to anyone, without the catalogue’s other fields', async () => {
    // The insurers of the test above: three active, two not.
    const res = await api.call('GET', '/api/client/signup/insurers');
    expectStatus(res, 200);
    expect(res.body).toEqual({
      insurers: [
        { name: 'AOK Bayern' },
        { name: 'DAK-Gesundheit' },
        { name: 'Techniker Krankenkasse' },
      ],
    });
  });
});

describe('GET /api/admin/campaigns', () => {
  it('is empty on a fresh database', async () => {
    const res = await api.call('GET', '/api/admin/campaigns', { as: coach });
    expectStatus(res, 200);
    expect(res.body).toEqual({ campaigns: [] });
  });

  it('lists active campaigns first, each group by name, with their fields', async () => {
    await api.database.db.insert(campaigns).values([
      {
        code: 'FJ26',
        name: 'Frühjahr 2026',
        description: 'Aktion mit Hausarztpraxen',
        active: true,
        startsAt: '2026-03-01T00:00:00.000Z',
        endsAt: '2026-05-31T22:00:00.000Z',
      },
      { code: 'ALT', name: 'Altaktion', active: false },
      { code: 'BGM', name: 'Betriebliche Gesundheit', active: true },
      { code: 'HB25', name: 'Herbst 2025', active: false, startsAt: '2025-09-01T00:00:00.000Z' },
    ]);
    for (const as of [admin, coach, manager]) {
      const res = await api.call('GET', '/api/admin/campaigns', { as });
      expectStatus(res, 200);
      expect(res.body.campaigns.map((c: any) => c.code)).toEqual(['BGM', 'FJ26', 'ALT', 'HB25']);
    }
    const res = await api.call('GET', '/api/admin/campaigns', { as: admin });
    expect(res.body.campaigns[1]).toEqual({
      id: expect.any(String),
      code: 'FJ26',
      name: 'Frühjahr 2026',
      description: 'Aktion mit Hausarztpraxen',
      active: true,
      startsAt: '2026-03-01T00:00:00.000Z',
      endsAt: '2026-05-31T22:00:00.000Z',
      street: null,
      postalCode: null,
      city: null,
      country: 'DE',
      invoiceEmail: null,
    });
    expect(res.body.campaigns[0]).toMatchObject({
      description: null,
      startsAt: null,
      endsAt: null,
    });
  });
});

describe('maintaining insurers (POST/PUT /api/admin/insurers)', () => {
  it('adds, renames (carrying the name onto clients) and deactivates, with business events', async () => {
    const res = await api.call('POST', '/api/admin/insurers', {
      as: admin,
      body: { name: '  IKK classic ', ikNumber: '107202793' },
    });
    expectStatus(res, 201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'IKK classic',
      ikNumber: '107202793',
      active: true,
      street: null,
      postalCode: null,
      city: null,
      country: 'DE',
      invoiceEmail: null,
    });
    const id = res.body.id;
    const [client] = await api.database.db
      .insert(clients)
      .values({ firstName: 'Ida', lastName: 'Kasse', insurer: 'IKK classic' })
      .returning();

    const renamed = await api.call('PUT', `/api/admin/insurers/${id}`, {
      as: admin,
      body: { name: 'IKK – Die Innovationskasse' },
    });
    expectStatus(renamed, 200);
    expect(renamed.body.name).toBe('IKK – Die Innovationskasse');
    const [after] = await api.database.db.select().from(clients).where(eq(clients.id, client!.id));
    expect(after!.insurer).toBe('IKK – Die Innovationskasse');
    const found = await api.call(
      'GET',
      `/api/admin/client?insurer=${encodeURIComponent('IKK – Die Innovationskasse')}`,
      { as: admin },
    );
    expectStatus(found, 200);
    expect(found.body.clients.map((c: any) => c.id)).toEqual([client!.id]);

    const off = await api.call('PUT', `/api/admin/insurers/${id}`, {
      as: admin,
      body: { active: false },
    });
    expectStatus(off, 200);
    expect(off.body.active).toBe(false);

    const rows = await api.database.db.select().from(events).where(eq(events.entityId, id));
    expect(rows.map((e) => e.type).sort()).toEqual([
      'insurer.created',
      'insurer.updated',
      'insurer.updated',
    ]);
    expect(rows.find((e) => (e.changes as any).renamedClients)?.changes).toMatchObject({
      name: { from: 'IKK classic', to: 'IKK – Die Innovationskasse' },
      renamedClients: 1,
    });
  });

  it('answers bad input with 400 naming the field and a taken name with 409, changing nothing', async () => {
    for (const [body, field] of [
      [{ name: 'X', ikNumber: '12345678' }, 'ikNumber'],
      [{ name: 'X', ikNumber: '12345678a' }, 'ikNumber'],
      [{ name: '   ', ikNumber: '123456789' }, 'name'],
      [{ ikNumber: '123456789' }, 'name'],
    ] as const) {
      const res = await api.call('POST', '/api/admin/insurers', { as: admin, body });
      expectStatus(res, 400);
      expect(res.body.errors.map((e: any) => e.field)).toContain(field);
    }
    await api.call('POST', '/api/admin/insurers', {
      as: admin,
      body: { name: 'hkk', ikNumber: '101570104' },
    });
    const dup = await api.call('POST', '/api/admin/insurers', {
      as: admin,
      body: { name: 'hkk', ikNumber: '101570105' },
    });
    expectStatus(dup, 409);
    expect(dup.body).toMatchObject({ code: 'insurer_name_taken', errors: [{ field: 'name' }] });
    const other = await api.call('POST', '/api/admin/insurers', {
      as: admin,
      body: { name: 'BKK24', ikNumber: '101570106' },
    });
    const clash = await api.call('PUT', `/api/admin/insurers/${other.body.id}`, {
      as: admin,
      body: { name: 'hkk' },
    });
    expectStatus(clash, 409);
    const missing = await api.call('PUT', `/api/admin/insurers/${SOME_ID}`, {
      as: admin,
      body: { active: true },
    });
    expectStatus(missing, 404);
  });

  it('is for admins: coaches and onboarding managers get 403', async () => {
    for (const as of [coach, manager]) {
      const res = await api.call('POST', '/api/admin/insurers', {
        as,
        body: { name: 'Y', ikNumber: '123456789' },
      });
      expectStatus(res, 403);
    }
  });
});

describe('maintaining campaigns (POST/PUT /api/admin/campaigns)', () => {
  it('adds, changes the code (carrying it onto clients) and deactivates', async () => {
    const res = await api.call('POST', '/api/admin/campaigns', {
      as: admin,
      body: { code: 'sommer-26', name: 'Sommer 2026', startsAt: '2026-06-01T00:00:00.000Z' },
    });
    expectStatus(res, 201);
    expect(res.body).toEqual({
      id: expect.any(String),
      code: 'sommer-26',
      name: 'Sommer 2026',
      description: null,
      active: true,
      startsAt: '2026-06-01T00:00:00.000Z',
      endsAt: null,
      street: null,
      postalCode: null,
      city: null,
      country: 'DE',
      invoiceEmail: null,
    });
    const [client] = await api.database.db
      .insert(clients)
      .values({ firstName: 'Carla', lastName: 'Kampagne', campaign: 'sommer-26' })
      .returning();
    const [rule] = await api.database.db
      .insert(billingRules)
      .values({
        name: 'Sommerpreis',
        position: 1,
        amountCents: 5000,
        description: 'Sommer',
        campaign: 'sommer-26',
      })
      .returning();
    const changed = await api.call('PUT', `/api/admin/campaigns/${res.body.id}`, {
      as: admin,
      body: { code: 'sommer-2026', description: 'Mit Sportvereinen', active: false },
    });
    expectStatus(changed, 200);
    expect(changed.body).toMatchObject({
      code: 'sommer-2026',
      description: 'Mit Sportvereinen',
      active: false,
    });
    const [after] = await api.database.db.select().from(clients).where(eq(clients.id, client!.id));
    expect(after!.campaign).toBe('sommer-2026');
    const [ruleAfter] = await api.database.db
      .select()
      .from(billingRules)
      .where(eq(billingRules.id, rule!.id));
    expect(ruleAfter!.campaign).toBe('sommer-2026');
    const rows = await api.database.db
      .select()
      .from(events)
      .where(eq(events.entityId, res.body.id));
    expect(rows.map((e) => e.type).sort()).toEqual(['campaign.created', 'campaign.updated']);
  });

  it('answers bad input with 400 naming the field and a taken code with 409', async () => {
    for (const [body, field] of [
      [{ code: 'mit leerzeichen', name: 'X' }, 'code'],
      [{ code: 'ok', name: ' ' }, 'name'],
      [
        { code: 'ok', name: 'X', startsAt: '2026-06-01T00:00:00Z', endsAt: '2026-05-01T00:00:00Z' },
        'endsAt',
      ],
      [{ code: 'ok', name: 'X', startsAt: 'morgen' }, 'startsAt'],
    ] as const) {
      const res = await api.call('POST', '/api/admin/campaigns', { as: admin, body });
      expectStatus(res, 400);
      expect(res.body.errors.map((e: any) => e.field)).toContain(field);
    }
    await api.call('POST', '/api/admin/campaigns', {
      as: admin,
      body: { code: 'doppelt', name: 'Eins' },
    });
    const dup = await api.call('POST', '/api/admin/campaigns', {
      as: admin,
      body: { code: 'doppelt', name: 'Zwei' },
    });
    expectStatus(dup, 409);
    expect(dup.body).toMatchObject({ code: 'campaign_code_taken', errors: [{ field: 'code' }] });
    const empty = await api.call('PUT', `/api/admin/campaigns/${SOME_ID}`, { as: admin, body: {} });
    expectStatus(empty, 400);
  });
});
