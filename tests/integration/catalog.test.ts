import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns, insurers } from '../../server/db/schema/index';
import { createApi, type Api } from '../support/api';
import { expectStatus, type Caller } from './fixtures';

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
    });
    expect(res.body.campaigns[0]).toMatchObject({
      description: null,
      startsAt: null,
      endsAt: null,
    });
  });
});
