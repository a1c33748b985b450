import type { EventType } from '../../shared/contract/enums';
import { and, eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import { billableItems, events } from '../../server/db/schema/index';
import { catchUpBillableItems } from '../../server/features/billing/index';
import type { Api } from '../support/api';
import { at, expectStatus, newAppointment, type Caller } from './fixtures';

type Status = 'pending' | 'validation_failed' | 'approved' | 'invoice_sent' | 'cancelled';

export const ADDRESS = { street: 'Hauptstr. 1', postalCode: '10115', city: 'Berlin' };

/** Makes billable items the way the app does (a past appointment, the item job), then puts them in a status. */
export function itemMaker(api: Api, admin: Caller) {
  let day = -300;
  const db = api.database.db;
  async function item(clientId: string, coachId: string, status: Status = 'pending') {
    const appointment = await newAppointment(api, admin, {
      clientId,
      coachId,
      startDate: at(day++, 7),
    });
    await catchUpBillableItems(db, { now: new Date(), changeNoticeHours: 24 });
    const [row] = await db
      .select()
      .from(billableItems)
      .where(eq(billableItems.appointmentId, appointment.id));
    expect(row, 'the job made an item').toBeDefined();
    const now = new Date().toISOString();
    const set = {
      pending: { status: 'pending' as const, validationErrors: [] },
      validation_failed: {
        status: 'validation_failed' as const,
        validationErrors: [{ code: 'missing_address', message: 'Anschrift fehlt.' }],
      },
      approved: { status: 'approved' as const, approvedAt: now },
      invoice_sent: { status: 'invoice_sent' as const, approvedAt: now, invoiceSentAt: now },
      cancelled: { status: 'cancelled' as const, cancelledAt: now },
    }[status];
    await db.update(billableItems).set(set).where(eq(billableItems.id, row!.id));
    return row!.id;
  }
  return item;
}

export async function statusesOf(api: Api, ids: string[]) {
  const rows = await api.database.db
    .select({ id: billableItems.id, status: billableItems.status })
    .from(billableItems)
    .where(inArray(billableItems.id, ids));
  return Object.fromEntries(rows.map((r) => [r.id, r.status]));
}

export async function eventsOf(api: Api, ids: string[], type: EventType) {
  return api.database.db
    .select({ entityId: events.entityId })
    .from(events)
    .where(and(inArray(events.entityId, ids), eq(events.type, type)));
}

export async function makeRule(api: Api, admin: Caller, body: Record<string, unknown>) {
  const res = await api.call('POST', '/api/admin/billing-rules', { as: admin, body });
  expectStatus(res, 201);
  return res.body;
}
