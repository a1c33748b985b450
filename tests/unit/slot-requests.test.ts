import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { createApiClient } from '../../src/api/client';
import { createRescheduleActors, createSelectionActors } from '../../src/machines/actors/client';
import { loadSlotsActor } from '../../src/machines/actors/scheduling';
import { expandCompactSlots } from '../../shared/compact-slots';

// The pickers ask for the compact form of the slots and hand the machines the same FreeSlot
// list the full form has: a picker must not lose a slot, a coach or the order.

const anna = { id: '0b8f5a8e-56a3-4d1e-9a58-111111111111', firstName: 'Anna', lastName: 'Berg' };
const bert = { id: '0b8f5a8e-56a3-4d1e-9a58-222222222222', firstName: 'Bert', lastName: 'Cole' };
/** 2027-10-31: the day of the October change (25 hours); 2027-11-01 an ordinary day. */
const compact = {
  timeZone: 'Europe/Berlin',
  durationMinutes: 30,
  coaches: [bert, anna],
  days: [
    {
      date: '2027-10-31',
      start: '2027-10-30T22:00:00.000Z',
      coaches: [
        { coach: 0, starts: [600, 615] },
        { coach: 1, starts: [540, 600] },
      ],
    },
    {
      date: '2027-11-01',
      start: '2027-10-31T23:00:00.000Z',
      coaches: [{ coach: 1, starts: [480] }],
    },
  ],
};
const slot = (start: string, coach: typeof anna) => ({
  startDate: start,
  endDate: new Date(Date.parse(start) + 30 * 60_000).toISOString(),
  coachId: coach.id,
  coach,
});
// 540 minutes after 22:00Z is 07:00Z: 08:00 CET (the clocks went back at 03:00 CEST).
const full = [
  slot('2027-10-31T07:00:00.000Z', anna),
  slot('2027-10-31T08:00:00.000Z', anna),
  slot('2027-10-31T08:00:00.000Z', bert),
  slot('2027-10-31T08:15:00.000Z', bert),
  slot('2027-11-01T07:00:00.000Z', anna),
];

function fakeApi() {
  const asked: URL[] = [];
  const api = createApiClient({
    getToken: () => 'token',
    baseUrl: 'http://localhost/api',
    dedupeWindowMs: 0,
    fetch: async (request: Request | string | URL) => {
      const url = new URL((request as Request).url);
      asked.push(url);
      const body = url.pathname.endsWith('/initial_appointment/a1')
        ? { id: 'a1' }
        : url.searchParams.get('form') === 'compact'
          ? compact
          : { timeZone: 'Europe/Berlin', slots: full };
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  return { api, asked };
}

const window = {
  startDate: '2027-10-25T00:00:00.000Z',
  endDate: '2027-11-22T00:00:00.000Z',
  duration: 30,
};

describe('the slot requests of the pickers', () => {
  it('expands a compact answer into the full form, in start order then coach', () => {
    expect(expandCompactSlots(compact as never)).toEqual(full);
  });

  it('the staff pickers ask for the compact form and get every slot', async () => {
    const { api, asked } = fakeApi();
    const actor = createActor(loadSlotsActor(api), {
      input: { coachId: 'initial-meetings', ...window },
    }).start();
    expect(await toPromise(actor)).toEqual(full);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.pathname).toBe('/api/admin/calendar/available_slots/initial-meetings');
    expect(asked[0]!.searchParams.get('form')).toBe('compact');
    expect(asked[0]!.searchParams.get('startDate')).toBe(window.startDate);
  });

  it('the client booking and reschedule pickers ask for the compact form', async () => {
    const { api, asked } = fakeApi();
    const { loadSlots } = createSelectionActors(api);
    expect(await toPromise(createActor(loadSlots, { input: window }).start())).toEqual(full);
    const { loadReschedule } = createRescheduleActors(api);
    const loaded = await toPromise(
      createActor(loadReschedule, { input: { appointmentId: 'a1', ...window } }).start(),
    );
    expect(loaded.slots).toEqual(full);
    const slotCalls = asked.filter((u) => u.pathname === '/api/client/initial_appointment_slots');
    expect(slotCalls).toHaveLength(2);
    for (const u of slotCalls) expect(u.searchParams.get('form')).toBe('compact');
    expect(slotCalls[1]!.searchParams.get('rescheduleOf')).toBe('a1');
  });
});
