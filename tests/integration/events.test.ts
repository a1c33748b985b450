import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api } from '../support/api';
import { at, expectStatus, ids, unique, type Caller } from './fixtures';

let api: Api;
type Actor = Caller & { userId: string; email: string };
let admin: Actor;
let manager: Actor;

/** What happened in beforeAll, in order. */
const ctx = {} as {
  coach: any;
  otherCoach: any;
  client: any;
  erased: any;
  appointment: any;
  staff: { id: string; email: string };
  loginUserId: string;
  clientValues: string[];
};

beforeAll(async () => {
  api = await createApi();
  admin = await api.signIn('ADMIN');
  manager = await api.signIn('ONBOARDING_MANAGER');

  const ok = async (status: number, p: Promise<any>) => {
    const res = await p;
    expectStatus(res, status);
    return res.body;
  };
  const call = (as: Caller, method: string, url: string, body?: unknown) =>
    api.call(method, url, { as, ...(body === undefined ? {} : { body }) });

  // Coaches (by the onboarding manager).
  ctx.coach = await ok(
    201,
    call(manager, 'POST', '/api/coach', {
      firstName: 'Gerda',
      lastName: 'Gans',
      email: `${unique('gerda')}@coach.example`,
    }),
  );
  await ok(200, call(manager, 'PUT', `/api/coach/${ctx.coach.id}`, { title: 'Dr.' }));
  ctx.otherCoach = await ok(
    201,
    call(admin, 'POST', '/api/coach', {
      firstName: 'Olaf',
      lastName: 'Ober',
      email: `${unique('olaf')}@coach.example`,
    }),
  );

  // A client (by the admin) with personal data that must stay out of the audit trail.
  const clientEmail = `${unique('lieselotte')}@mail.example`;
  ctx.clientValues = [
    'Lieselotte',
    'Leise',
    clientEmail,
    '0151 7654321',
    'F41.1',
    'Angst vor Terminen',
    'Schwester',
  ];
  ctx.client = await ok(
    201,
    call(admin, 'POST', '/api/admin/client', {
      firstName: 'Lieselotte',
      lastName: 'Leise',
      email: clientEmail,
      telephone: '0151 7654321',
      diagnosis: 'F41.1',
      coachedById: ctx.coach.id,
    }),
  );
  await ok(
    200,
    call(admin, 'PUT', `/api/admin/client/${ctx.client.id}`, {
      notes: 'Angst vor Terminen',
      howDidYouHearAboutUs: 'Schwester',
    }),
  );
  await ok(200, call(manager, 'POST', `/api/admin/client/${ctx.client.id}/close-sessions`));
  await ok(200, call(manager, 'POST', `/api/admin/client/${ctx.client.id}/open-sessions`));

  // An appointment: created, moved, cancelled.
  ctx.appointment = await ok(
    201,
    call(admin, 'POST', '/api/appointment', {
      clientId: ctx.client.id,
      coachId: ctx.coach.id,
      startDate: at(3, 9),
      endDate: at(3, 10),
      appointmentType: 'first',
      // Used only when the day falls on a public holiday.
      availabilityOverrideReason: 'Testtermin',
    }),
  );
  await ok(
    200,
    call(manager, 'PUT', `/api/appointment/${ctx.appointment.id}`, {
      startDate: at(3, 11),
      endDate: at(3, 12),
      // The coach has no availability: staff move it anyway and say why.
      availabilityOverrideReason: 'Telefonisch vereinbart',
    }),
  );
  await ok(200, call(admin, 'DELETE', `/api/appointment/${ctx.appointment.id}`));

  // The coach leaves; another client is erased.
  await ok(204, call(manager, 'DELETE', `/api/coach/${ctx.coach.id}`));
  ctx.erased = await ok(
    201,
    call(admin, 'POST', '/api/admin/client', { firstName: 'Weg', lastName: 'Damit' }),
  );
  await ok(204, call(admin, 'DELETE', `/api/admin/client/${ctx.erased.id}`));

  // Users: created by the admin, activated by the person, changed by the manager.
  const staffEmail = `${unique('staff')}@example.test`;
  const created = await ok(
    201,
    call(admin, 'POST', '/api/user', {
      email: staffEmail,
      role: 'COACH',
      coachId: ctx.otherCoach.id,
    }),
  );
  const person = {
    authorization: `Bearer ${await api.tokenFor({ sub: randomUUID(), email: staffEmail })}`,
  };
  await ok(
    200,
    call(person, 'POST', '/api/user/activate', { activationCode: created.activationCode }),
  );
  await ok(
    200,
    call(manager, 'POST', `/api/user/${created.user.id}`, {
      role: 'ONBOARDING_MANAGER',
      coachId: null,
    }),
  );
  ctx.staff = { id: created.user.id, email: staffEmail };

  // Somebody signs in for the first time.
  const stranger = { authorization: `Bearer ${await api.tokenFor({ sub: randomUUID() })}` };
  ctx.loginUserId = (await ok(200, call(stranger, 'POST', '/api/login'))).userId;
});
afterAll(() => api.close());

async function businessEvents(query: Record<string, string | number> = {}) {
  const res = await api.call('GET', '/api/businessevents', {
    as: admin,
    query: { pageSize: 100, ...query },
  });
  expectStatus(res, 200);
  expect(res.body.itemCount).toBe(res.body.businessEvents.length);
  return res.body.businessEvents as any[];
}
async function feed(query: Record<string, string | number | boolean> = {}) {
  const res = await api.call('GET', '/api/events', { as: admin, query: { limit: 100, ...query } });
  expectStatus(res, 200);
  expect(res.body.itemCount).toBe(res.body.events.length);
  return res.body.events as any[];
}
const actorOf = (a: Actor, role: string) => ({ id: a.userId, email: a.email, role });

describe('GET /api/businessevents', () => {
  it('records every write with its action, entity and actor', async () => {
    const all = await businessEvents();
    const find = (action: string, entityId: string) => {
      const hits = all.filter((e) => e.action === action && e.entityId === entityId);
      expect(hits, `${action} ${entityId}`).toHaveLength(1);
      return hits[0];
    };
    const mgr = actorOf(manager, 'ONBOARDING_MANAGER');
    const adm = actorOf(admin, 'ADMIN');

    expect(find('coach.created', ctx.coach.id)).toMatchObject({
      entityType: 'coach',
      actor: mgr,
      coachId: ctx.coach.id,
    });
    expect(find('coach.updated', ctx.coach.id)).toMatchObject({
      actor: mgr,
      changes: { title: { from: null, to: 'Dr.' } },
    });
    expect(find('coach.deactivated', ctx.coach.id)).toMatchObject({ actor: mgr });
    expect(find('client.created', ctx.client.id)).toMatchObject({
      entityType: 'client',
      actor: adm,
      clientId: ctx.client.id,
      coachId: ctx.coach.id,
    });
    expect(find('client.updated', ctx.client.id)).toMatchObject({
      actor: adm,
      clientId: ctx.client.id,
    });
    expect(find('client.sessions_closed', ctx.client.id)).toMatchObject({ actor: mgr });
    expect(find('client.sessions_opened', ctx.client.id)).toMatchObject({ actor: mgr });
    expect(find('client.deleted', ctx.erased.id)).toMatchObject({
      actor: adm,
      clientId: ctx.erased.id,
    });

    const appointment = {
      appointmentId: ctx.appointment.id,
      clientId: ctx.client.id,
      coachId: ctx.coach.id,
    };
    expect(find('appointment.created', ctx.appointment.id)).toMatchObject({
      entityType: 'appointment',
      actor: adm,
      ...appointment,
      changes: { startDate: at(3, 9), endDate: at(3, 10), appointmentType: 'first' },
    });
    expect(find('appointment.updated', ctx.appointment.id)).toMatchObject({
      actor: mgr,
      ...appointment,
      changes: {
        startDate: { from: at(3, 9), to: at(3, 11) },
        endDate: { from: at(3, 10), to: at(3, 12) },
        availabilityOverride: { reason: 'Telefonisch vereinbart' },
      },
    });
    expect(find('appointment.cancelled', ctx.appointment.id)).toMatchObject({
      actor: adm,
      ...appointment,
    });

    expect(find('user.created', ctx.staff.id)).toMatchObject({ entityType: 'user', actor: adm });
    // The activated person is the actor (the role shown is the user's current one).
    expect(find('user.activated', ctx.staff.id)).toMatchObject({
      actor: { id: ctx.staff.id, email: ctx.staff.email },
    });
    expect(find('user.updated', ctx.staff.id)).toMatchObject({
      actor: mgr,
      changes: {
        role: { from: 'COACH', to: 'ONBOARDING_MANAGER' },
        coachId: { from: ctx.otherCoach.id, to: null },
      },
    });
    expect(find('user.created', ctx.loginUserId)).toMatchObject({ actor: null });

    const times = all.map((e) => e.occurredAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by appointment, coach, client and acting user', async () => {
    const byAppointment = await businessEvents({ appointmentId: ctx.appointment.id });
    expect(byAppointment.map((e) => e.action)).toEqual([
      'appointment.cancelled',
      'appointment.updated',
      'appointment.created',
    ]);

    const byCoach = await businessEvents({ coachId: ctx.coach.id });
    expect(byCoach.every((e) => e.coachId === ctx.coach.id)).toBe(true);
    expect(byCoach.map((e) => e.action).sort()).toEqual(
      [
        'coach.created',
        'coach.updated',
        'client.created',
        'client.updated',
        'client.sessions_closed',
        'client.sessions_opened',
        'appointment.created',
        'appointment.updated',
        'appointment.cancelled',
        'coach.deactivated',
      ].sort(),
    );

    const byClient = await businessEvents({ clientId: ctx.client.id });
    expect(byClient.map((e) => e.action).sort()).toEqual(
      [
        'client.created',
        'client.updated',
        'client.sessions_closed',
        'client.sessions_opened',
        'appointment.created',
        'appointment.updated',
        'appointment.cancelled',
      ].sort(),
    );

    const byManager = await businessEvents({ userId: manager.userId });
    expect(byManager.length).toBeGreaterThan(0);
    expect(byManager.every((e) => e.actor?.id === manager.userId)).toBe(true);
    expect(byManager.map((e) => e.action).sort()).toEqual(
      [
        'coach.created',
        'coach.updated',
        'client.sessions_closed',
        'client.sessions_opened',
        'appointment.updated',
        'coach.deactivated',
        'user.updated',
      ].sort(),
    );
    expect(await businessEvents({ appointmentId: randomUUID() })).toEqual([]);
  });

  it('pages with page and pageSize', async () => {
    const all = await businessEvents({ clientId: ctx.client.id });
    const pages: string[][] = [];
    for (const page of [1, 2, 3, 4]) {
      const res = await api.call('GET', '/api/businessevents', {
        as: admin,
        query: { clientId: ctx.client.id, page, pageSize: 3 },
      });
      expectStatus(res, 200);
      expect(res.body.itemCount).toBe(7);
      pages.push(ids(res.body.businessEvents));
    }
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1, 0]);
    expect(pages.flat()).toEqual(ids(all));
    const defaults = await api.call('GET', '/api/businessevents', { as: admin });
    expect(defaults.body.businessEvents).toHaveLength(10);
  });

  it('keeps the values of client records out of the audit trail, naming only the fields', async () => {
    const clientEvents = (await businessEvents()).filter(
      (e) => e.entityType === 'client' || e.clientId,
    );
    expect(clientEvents.length).toBeGreaterThan(0);
    for (const event of clientEvents) {
      const text = JSON.stringify(event.changes);
      for (const value of ctx.clientValues)
        expect(text, `${event.action} leaks ${value}`).not.toContain(value);
    }
    const created = clientEvents.find(
      (e) => e.action === 'client.created' && e.entityId === ctx.client.id,
    );
    expect(JSON.stringify(created.changes)).toContain('diagnosis');
    expect(JSON.stringify(created.changes)).toContain('firstName');
    const updated = clientEvents.find(
      (e) => e.action === 'client.updated' && e.entityId === ctx.client.id,
    );
    expect(JSON.stringify(updated.changes)).toContain('notes');
  });
});

describe('GET /api/events', () => {
  const GERMAN: Record<string, string> = {
    'user.created': 'Benutzer:in angelegt',
    'user.updated': 'Benutzer:in geändert',
    'user.activated': 'Konto aktiviert',
    'coach.created': 'Coach angelegt',
    'coach.updated': 'Coach geändert',
    'coach.deactivated': 'Coach deaktiviert',
    'client.created': 'Klient:in angelegt',
    'client.updated': 'Klient:in geändert',
    'client.deleted': 'Klient:in gelöscht',
    'client.sessions_closed': 'Sitzungen abgeschlossen',
    'client.sessions_opened': 'Sitzungen wieder geöffnet',
    'appointment.created': 'Termin angelegt',
    'appointment.updated': 'Termin geändert',
    'appointment.cancelled': 'Termin abgesagt',
  };

  it('shows the business events with a German summary and the actor', async () => {
    const events = await feed({ showAllEvents: true });
    expect(events.length).toBe((await businessEvents()).length);
    for (const e of events) {
      expect(e.source).toBe('business');
      expect(e.summary, e.type).toBe(GERMAN[e.type]);
    }
    const created = events.find((e) => e.type === 'appointment.created');
    expect(created).toMatchObject({
      summary: 'Termin angelegt',
      actor: actorOf(admin, 'ADMIN'),
      appointmentId: ctx.appointment.id,
      clientId: ctx.client.id,
      coachId: ctx.coach.id,
      important: true,
    });
  });

  it('hides unimportant events unless showAllEvents=true', async () => {
    const important = await feed();
    const all = await feed({ showAllEvents: true });
    expect(important.every((e) => e.important)).toBe(true);
    expect(ids(important)).not.toContain(
      all.find((e) => e.type === 'user.created' && !e.actor)?.id,
    );
    const firstLogin = all.find((e) => e.type === 'user.created' && e.actor === null);
    expect(firstLogin).toMatchObject({ important: false, summary: 'Benutzer:in angelegt' });
    expect(all.length).toBeGreaterThan(important.length);
    expect(await feed({ showAllEvents: false })).toEqual(important);
  });

  it('filters by client, coach and appointment and pages with limit', async () => {
    const byAppointment = await feed({ appointment: ctx.appointment.id });
    expect(byAppointment.map((e) => e.summary)).toEqual([
      'Termin abgesagt',
      'Termin geändert',
      'Termin angelegt',
    ]);
    const byClient = await feed({ client: ctx.client.id });
    expect(byClient).toHaveLength(7);
    expect(byClient.every((e) => e.clientId === ctx.client.id)).toBe(true);
    const byCoach = await feed({ coach: ctx.coach.id });
    expect(byCoach).toHaveLength(10);
    expect(byCoach.every((e) => e.coachId === ctx.coach.id)).toBe(true);

    const page2 = await api.call('GET', '/api/events', {
      as: admin,
      query: { client: ctx.client.id, limit: 5, page: 2 },
    });
    expect(page2.body.itemCount).toBe(7);
    expect(ids(page2.body.events)).toEqual(ids(byClient.slice(5)));
  });
});
