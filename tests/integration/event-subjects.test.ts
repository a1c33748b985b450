import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../support/api';
import { ADDRESS, itemMaker, makeRule } from './billing-support';
import { expectStatus, newClient, newCoach, startApi, unique, type Caller } from './fixtures';

/**
 * `/events` said only "Klient:in / Termin" and "Rechnung versendet". Each
 * event now names what it is about: the client's name, the appointment's start and type, the
 * invoice's number — each only for callers who may see that record.
 */
let api: Api;
let admin: Caller;
let manager: Caller;
const ctx = {} as {
  client: { id: string; lastName: string };
  itemId: string;
  appointmentId: string;
  appointmentStart: string;
  invoice: { id: string; number: string };
  erasedId: string;
};

beforeAll(async () => {
  ({
    api,
    callers: [admin, manager],
  } = await startApi({}, 'ADMIN', 'ONBOARDING_MANAGER'));
  const coachId = (await newCoach(api, admin)).id;
  await makeRule(api, admin, { name: 'Alles', amountCents: 11900, description: 'Coaching' });
  const lastName = `Nachname-${unique()}`;
  ctx.client = await newClient(api, admin, {
    ...ADDRESS,
    firstName: 'Hanna',
    lastName,
    email: `${unique()}@example.com`,
  });
  ctx.itemId = await itemMaker(api, admin)(ctx.client.id, coachId, 'approved');
  const items = await api.call('GET', '/api/billable-items', {
    as: admin,
    query: { clientId: ctx.client.id },
  });
  expectStatus(items, 200);
  ctx.appointmentId = items.body.billableItems[0].appointmentId;
  const appointment = await api.call('GET', `/api/appointment/${ctx.appointmentId}`, { as: admin });
  ctx.appointmentStart = appointment.body.startDate;

  const run = await api.call('POST', '/api/invoices/runs', {
    as: admin,
    body: { itemIds: [ctx.itemId] },
  });
  expectStatus(run, 201);
  ctx.invoice = { id: run.body.invoices[0].id, number: run.body.invoices[0].number };
  expectStatus(
    await api.call('POST', `/api/invoices/${ctx.invoice.id}/send`, { as: admin, body: {} }),
    200,
  );

  const erased = await newClient(api, admin, { firstName: 'Weg', lastName: 'Damit' });
  ctx.erasedId = erased.id;
  expectStatus(await api.call('DELETE', `/api/admin/client/${erased.id}`, { as: admin }), 204);
});
afterAll(() => api.close());

async function feed(as: Caller) {
  const res = await api.call('GET', '/api/events', {
    as,
    query: { limit: 100, showAllEvents: true },
  });
  expectStatus(res, 200);
  return res.body.events as Array<{ type: string; clientId: string | null; subject: unknown }>;
}
async function audit(as: Caller) {
  const res = await api.call('GET', '/api/businessevents', { as, query: { pageSize: 100 } });
  expectStatus(res, 200);
  return res.body.businessEvents as Array<{
    action: string;
    clientId: string | null;
    subject: unknown;
  }>;
}

describe('what an event is about', () => {
  it('names the client, the appointment and the invoice in the feed and the audit trail', async () => {
    const name = `Hanna ${ctx.client.lastName}`;
    const appointment = { startDate: ctx.appointmentStart, appointmentType: 'followup' };
    const events = await feed(admin);
    const one = (type: string) =>
      events.find(
        (e) => e.type === type && (e.clientId === ctx.client.id || type.startsWith('invoice.')),
      );

    expect(one('client.created')?.subject).toEqual({
      clientName: name,
      appointment: null,
      invoice: null,
    });
    expect(one('appointment.created')?.subject).toEqual({
      clientName: name,
      appointment,
      invoice: null,
    });
    // "Rechnung versendet" says which invoice: on the invoice's own event and on the item's.
    expect(one('invoice.issued')?.subject).toEqual({
      clientName: null,
      appointment: null,
      invoice: ctx.invoice,
    });
    expect(one('invoice.sent')?.subject).toEqual({
      clientName: null,
      appointment: null,
      invoice: ctx.invoice,
    });
    expect(one('billable_item.invoice_sent')?.subject).toEqual({
      clientName: name,
      appointment,
      invoice: ctx.invoice,
    });

    const trail = await audit(admin);
    expect(trail.find((e) => e.action === 'invoice.sent')?.subject).toEqual({
      clientName: null,
      appointment: null,
      invoice: ctx.invoice,
    });
    // An erased client has no name any more; the event stays.
    expect(
      events.find((e) => e.type === 'client.deleted' && e.clientId === ctx.erasedId)?.subject,
    ).toEqual({
      clientName: null,
      appointment: null,
      invoice: null,
    });
  });

  it('gives invoice numbers only to roles that may open invoices', async () => {
    const events = await feed(manager);
    const sent = events.find(
      (e) => e.type === 'billable_item.invoice_sent' && e.clientId === ctx.client.id,
    );
    // Onboarding managers see clients and appointments, not invoices.
    expect(sent?.subject).toEqual({
      clientName: `Hanna ${ctx.client.lastName}`,
      appointment: { startDate: ctx.appointmentStart, appointmentType: 'followup' },
      invoice: null,
    });
    expect(events.filter((e) => (e.subject as { invoice: unknown }).invoice !== null)).toEqual([]);
    expect(
      (await audit(manager)).filter((e) => (e.subject as { invoice: unknown }).invoice !== null),
    ).toEqual([]);
  });
});
