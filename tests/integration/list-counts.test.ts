import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../server/db/raw-rows';
import { appointments, clients } from '../../server/db/schema/index';
import { createApi, type Api } from '../support/api';
import { at, newAppointment, newClient, newCoach, unique, type Caller } from './fixtures';

// A list's count is remembered with the list generation it was taken under (migration 0006,
// http/paging.ts). These tests change the rows behind the API's back, as another instance, a
// job or a console would, and expect the next page to count them.
let api: Api;
let admin: Caller;
beforeAll(async () => {
  api = await createApi();
  admin = await api.signIn('ADMIN');
});
afterAll(() => api.close());

const generation = async () => {
  const result = await api.database.db.execute(sql`SELECT value FROM list_generation`);
  return Number(rowsOf<{ value: string | number }>(result)[0]!.value);
};

describe('remembered list counts', () => {
  it('count clients written past the API, and not those of a rolled-back transaction', async () => {
    const campaign = unique('zaehl');
    const count = async () =>
      (await api.call('GET', '/api/admin/client', { as: admin, query: { campaign, limit: 1 } }))
        .body.itemCount as number;
    await newClient(api, admin, { campaign });
    expect(await count()).toBe(1);
    expect(await count()).toBe(1);

    await api.database.db
      .insert(clients)
      .values({ firstName: 'Direkt', lastName: 'Eingefügt', campaign });
    expect(await count()).toBe(2);

    const before = await generation();
    await api.database.db
      .transaction(async (tx) => {
        await tx.insert(clients).values({ firstName: 'Nie', lastName: 'Bestätigt', campaign });
        tx.rollback();
      })
      .catch(() => undefined);
    expect(await generation()).toBe(before);
    expect(await count()).toBe(2);

    await api.database.db
      .update(clients)
      .set({ sessionsClosedOn: new Date().toISOString() })
      .where(eq(clients.lastName, 'Eingefügt'));
    expect(await count()).toBe(1);
  });

  it('count appointments changed past the API', async () => {
    const coach = await newCoach(api, admin);
    const client = await newClient(api, admin);
    const count = async () =>
      (
        await api.call('GET', '/api/appointments', {
          as: admin,
          query: { coach: coach.id, cancelled: false, limit: 1 },
        })
      ).body.itemCount as number;
    const first = await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(4, 9),
    });
    await newAppointment(api, admin, {
      clientId: client.id,
      coachId: coach.id,
      startDate: at(4, 11),
    });
    expect(await count()).toBe(2);
    expect(await count()).toBe(2);
    await api.database.db
      .update(appointments)
      .set({ cancelledAt: new Date().toISOString() })
      .where(eq(appointments.id, first.id));
    expect(await count()).toBe(1);
  });

  it('count the clients a text search finds after they were written past the API', async () => {
    const name = unique('Suchzahl').toLowerCase();
    const search = async (page = 1) =>
      (
        await api.call('GET', '/api/admin/client', {
          as: admin,
          query: { search: name, limit: 1, page },
        })
      ).body as { itemCount: number; clients: Array<{ firstName: string }> };
    await newClient(api, admin, { lastName: name });
    expect((await search()).itemCount).toBe(1);
    expect((await search()).itemCount).toBe(1);

    await api.database.db.insert(clients).values({ firstName: 'Direkt', lastName: name });
    const afterInsert = await search();
    expect(afterInsert.itemCount).toBe(2);
    // Newest first: the client written last leads the first page.
    expect(afterInsert.clients.map((c) => c.firstName)).toEqual(['Direkt']);
    expect((await search(2)).itemCount).toBe(2);

    await api.database.db
      .update(clients)
      .set({ lastName: 'Umbenannt' })
      .where(and(eq(clients.firstName, 'Direkt'), eq(clients.lastName, name)));
    expect((await search()).itemCount).toBe(1);
    // A page past the end still says how many there are.
    expect(await search(3)).toMatchObject({ itemCount: 1, clients: [] });
  });

  it('raise the generation once per transaction, whatever it writes', async () => {
    const before = await generation();
    await api.database.db
      .insert(clients)
      .values(Array.from({ length: 5 }, (_, i) => ({ firstName: 'Viele', lastName: `Zeile${i}` })));
    expect(await generation()).toBe(before + 1);
  });
});
