import { and, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { appointments, clients, invoices, type events } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { reachOf, scopeFilter } from '../../access/policy';
import type { components } from '../../../shared/contract/product';

type EventRow = typeof events.$inferSelect;
export type EventSubject = components['schemas']['EventSubject'];

/** Roles that may open invoices (the contract's x-roles of getInvoice; SUPERADMIN passes every check). */
const INVOICE_READERS: readonly string[] = ['ADMIN', 'SUPERADMIN'];

const unique = (values: Array<string | null | undefined>) => [
  ...new Set(values.filter((v): v is string => typeof v === 'string' && v !== '')),
];

/** The invoice number an item's event names in its changes (sent with or cancelled with an invoice). */
const numberIn = (changes: unknown): string | null => {
  const n = (changes as { invoiceNumber?: unknown } | null)?.invoiceNumber;
  return typeof n === 'string' ? n : null;
};

/**
 * What each event of a page is about, named for people: the client's name, the appointment's
 * start and type, the invoice's number. One query per kind for the whole page. A caller sees a
 * name only where they may see the record itself: clients and appointments by the list scope
 * (a coach only their own), invoices only for the roles that may open invoices.
 */
export async function subjectsOf(
  db: Db,
  principal: Principal,
  rows: readonly EventRow[],
): Promise<Map<string, EventSubject>> {
  const seesRecords = reachOf(principal).kind !== 'none';

  const clientIds = seesRecords ? unique(rows.map((e) => e.clientId)) : [];
  const appointmentIds = seesRecords ? unique(rows.map((e) => e.appointmentId)) : [];
  const seesInvoices = INVOICE_READERS.includes(principal.role);
  const invoiceIds = seesInvoices
    ? unique(rows.map((e) => (e.entityType === 'invoice' ? e.entityId : null)))
    : [];
  const invoiceNumbers = seesInvoices ? unique(rows.map((e) => numberIn(e.changes))) : [];

  const [clientRows, appointmentRows, invoiceRows] = await Promise.all([
    clientIds.length
      ? db
          .select({ id: clients.id, firstName: clients.firstName, lastName: clients.lastName })
          .from(clients)
          .where(and(inArray(clients.id, clientIds), scopeFilter(principal, 'clients')))
      : [],
    appointmentIds.length
      ? db
          .select({
            id: appointments.id,
            startDate: appointments.startDate,
            appointmentType: appointments.appointmentType,
          })
          .from(appointments)
          .where(
            and(inArray(appointments.id, appointmentIds), scopeFilter(principal, 'appointments')),
          )
      : [],
    invoiceIds.length || invoiceNumbers.length
      ? db
          .select({ id: invoices.id, number: invoices.number })
          .from(invoices)
          // Either names the invoice: its id (invoice events) or its number (items' events).
          .where(
            or(
              invoiceIds.length ? inArray(invoices.id, invoiceIds) : undefined,
              invoiceNumbers.length ? inArray(invoices.number, invoiceNumbers) : undefined,
            ),
          )
      : [],
  ]);
  const clientName = new Map(clientRows.map((c) => [c.id, `${c.firstName} ${c.lastName}`]));
  const appointment = new Map(
    appointmentRows.map((a) => [
      a.id,
      { startDate: a.startDate, appointmentType: a.appointmentType },
    ]),
  );
  const invoiceById = new Map(invoiceRows.map((i) => [i.id, i]));
  const invoiceByNumber = new Map(invoiceRows.map((i) => [i.number, i]));
  return new Map(
    rows.map((e) => {
      const invoice =
        (e.entityType === 'invoice' && e.entityId ? invoiceById.get(e.entityId) : undefined) ??
        invoiceByNumber.get(numberIn(e.changes) ?? '');
      return [
        e.id,
        {
          clientName: (e.clientId && clientName.get(e.clientId)) || null,
          appointment: (e.appointmentId && appointment.get(e.appointmentId)) || null,
          invoice: invoice ? { id: invoice.id, number: invoice.number } : null,
        },
      ];
    }),
  );
}
