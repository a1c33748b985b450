import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api } from '../support/api';
import { at, ids, newAppointment, newClient, newCoach, type Caller } from './fixtures';

// List queries are prepared once per shape and reused with other values: the same shape
// with different values (and different callers) must never answer with the first caller's
// results.
let api: Api;
let admin: Caller;
beforeAll(async () => {
  api = await createApi();
  admin = await api.signIn('ADMIN');
});
afterAll(() => api.close());

describe('prepared list queries', () => {
  it('give each coach their own appointments and clients, one after the other', async () => {
    const [a, b] = [await api.signIn('COACH'), await api.signIn('COACH')];
    const clientA = await newClient(api, admin, { coachedById: a.coachId });
    const clientB = await newClient(api, admin, { coachedById: b.coachId });
    const apptA = await newAppointment(api, admin, {
      clientId: clientA.id,
      coachId: a.coachId!,
      startDate: at(3, 9),
    });
    const apptB = await newAppointment(api, admin, {
      clientId: clientB.id,
      coachId: b.coachId!,
      startDate: at(3, 9),
    });
    for (const [coach, appointment, client] of [
      [a, apptA, clientA],
      [b, apptB, clientB],
      [a, apptA, clientA],
    ] as const) {
      const appointments = await api.call('GET', '/api/appointments', { as: coach });
      expect(ids(appointments.body.appointments)).toEqual([appointment.id]);
      const clients = await api.call('GET', '/api/admin/client', { as: coach });
      expect(ids(clients.body.clients)).toEqual([client.id]);
    }
  });

  it('answer the same filters with other values correctly', async () => {
    const coachX = await newCoach(api, admin);
    const coachY = await newCoach(api, admin);
    const x = await newClient(api, admin, { campaign: 'kampagne-x', insurer: 'AOK Bayern' });
    const y = await newClient(api, admin, { campaign: 'kampagne-y', insurer: 'BARMER' });
    const ax = await newAppointment(api, admin, {
      clientId: x.id,
      coachId: coachX.id,
      startDate: at(5, 10),
    });
    const ay = await newAppointment(api, admin, {
      clientId: y.id,
      coachId: coachY.id,
      startDate: at(5, 10),
    });
    for (const [coach, expected] of [
      [coachX, ax],
      [coachY, ay],
    ] as const) {
      const res = await api.call('GET', '/api/appointments', {
        as: admin,
        query: { coach: coach.id },
      });
      expect(ids(res.body.appointments)).toEqual([expected.id]);
    }
    for (const [insurer, expected] of [
      ['AOK Bayern', ax],
      ['BARMER', ay],
    ] as const) {
      const res = await api.call('GET', '/api/appointments', {
        as: admin,
        query: { insurer, coach: expected.coachId },
      });
      expect(ids(res.body.appointments)).toEqual([expected.id]);
    }
    for (const [campaign, expected] of [
      ['kampagne-x', x],
      ['kampagne-y', y],
      ['kampagne-z', null],
    ] as const) {
      const res = await api.call('GET', '/api/admin/client', { as: admin, query: { campaign } });
      expect(ids(res.body.clients)).toEqual(expected ? [expected.id] : []);
      expect(res.body.itemCount).toBe(expected ? 1 : 0);
    }
    for (const [search, expected] of [
      [x.lastName, x],
      [y.lastName, y],
    ] as const) {
      const res = await api.call('GET', '/api/admin/client', { as: admin, query: { search } });
      expect(ids(res.body.clients)).toEqual([expected.id]);
    }
  });
});
