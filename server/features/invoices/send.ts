import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  billableItems,
  communicationAttachments,
  communications,
  events,
  invoiceItems,
  invoices,
} from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { badRequest, conflict, HttpProblem, notFound } from '../../http/problem';
import type { JobQueue } from '../../jobs/queue';
import { canApplyBillingAction } from '../../../shared/billing-transitions';
import { inTransaction } from '../../db/transaction';
import { DELIVER_JOB, type DeliverJobData } from '../notifications/index';
import type { Practice } from './document';
import { documentOf, wantsXRechnung, type InvoiceRow } from './issue';
import { renderXRechnung } from './xrechnung';
import { euro, germanDate } from './money';
import { itemEvent } from './item-events';

const mailText = (row: InvoiceRow, xml: string | null, practiceName: string) =>
  [
    'Guten Tag,',
    '',
    `anbei erhalten Sie unsere ${row.kind === 'cancellation' ? 'Stornorechnung' : 'Rechnung'} ${row.number} vom ${germanDate(row.invoiceDate)} über ${euro(row.grossCents)}.`,
    xml ? 'Die Rechnung liegt zusätzlich als XRechnung (XML) bei.' : '',
    '',
    'Mit freundlichen Grüßen',
    practiceName,
  ]
    .filter((line, i, all) => line !== '' || all[i - 1] !== '')
    .join('\n');

/**
 * Queues the invoice mail with its PDF (and XML) attached, in this transaction, and marks the
 * invoice sent and its items invoice_sent (the transition table's markInvoiceSent). A resend
 * only mails again. A cancellation invoice is sent the same way (it has no items).
 */
export async function sendInvoice(
  db: Db,
  principal: Principal,
  deps: { jobs: JobQueue; practice: Practice },
  now: Date,
  id: string,
  email: string | undefined,
): Promise<InvoiceRow> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx.select().from(invoices).where(eq(invoices.id, id)).for('update');
    if (!row) throw notFound('invoice');
    if (row.status === 'cancelled') {
      throw conflict(
        'invoice_cancelled',
        'A cancelled invoice is not sent; send its cancellation invoice',
      );
    }
    const to = email ?? row.recipient.email;
    if (!to)
      throw badRequest(
        'email',
        'required',
        'Die Empfängeradresse fehlt: bitte eine E-Mail-Adresse angeben.',
      );
    // A business payer's XRechnung is made at issue from the stored address; an invoice issued
    // before the payer's invoice e-mail was known gets it now, with the address it was sent to.
    let xml = row.xml;
    let recipient = row.recipient;
    if (!xml && wantsXRechnung(row.payerKind, { ...row.recipient, email: to })) {
      recipient = { ...row.recipient, email: to };
      const [cancelled] = row.cancelsInvoiceId
        ? await tx.select().from(invoices).where(eq(invoices.id, row.cancelsInvoiceId))
        : [];
      xml = await renderXRechnung(
        { ...documentOf(row, cancelled ?? null), recipient },
        deps.practice,
      );
    }

    const links = await tx
      .select({ itemId: invoiceItems.billableItemId })
      .from(invoiceItems)
      .where(and(eq(invoiceItems.invoiceId, row.id), eq(invoiceItems.live, true)));
    const items = links.length
      ? await tx
          .select()
          .from(billableItems)
          .where(
            inArray(
              billableItems.id,
              links.map((l) => l.itemId),
            ),
          )
          .orderBy(asc(billableItems.id))
          .for('update')
      : [];
    const due = items.filter((i) => i.status !== 'invoice_sent');
    const stuck = due.filter((i) => !canApplyBillingAction('markInvoiceSent', i.status));
    if (stuck.length) {
      throw new HttpProblem(
        409,
        'invalid_transition',
        'Conflict',
        'Items of this invoice are no longer approved; cancel the invoice instead',
        stuck.map((i) => ({
          field: 'id',
          id: i.id,
          status: i.status,
          code: 'invalid_transition',
          message: `item is ${i.status}`,
        })),
      );
    }

    const [message] = await tx
      .insert(communications)
      .values({
        channel: 'email',
        template: 'invoice',
        recipient: to,
        subject: `${row.kind === 'cancellation' ? 'Stornorechnung' : 'Rechnung'} ${row.number}`,
        body: mailText(row, xml, deps.practice.name),
        clientId: row.payerKind === 'client' ? (items[0]?.clientId ?? null) : null,
      })
      .returning({ id: communications.id });
    await tx.insert(communicationAttachments).values([
      {
        communicationId: message!.id,
        filename: `Rechnung_${row.number}.pdf`,
        contentType: 'application/pdf',
        content: row.pdf,
      },
      ...(xml
        ? [
            {
              communicationId: message!.id,
              filename: `XRechnung_${row.number}.xml`,
              contentType: 'application/xml',
              content: Buffer.from(xml, 'utf8'),
            },
          ]
        : []),
    ]);
    await deps.jobs.send<DeliverJobData>(tx, DELIVER_JOB, { communicationId: message!.id });

    const [updated] = await tx
      .update(invoices)
      .set({ status: 'sent', sentAt: row.sentAt ?? now.toISOString(), sentTo: to, xml, recipient })
      .where(eq(invoices.id, row.id))
      .returning();
    if (due.length) {
      await tx
        .update(billableItems)
        .set({ status: 'invoice_sent', invoiceSentAt: sql`now()`, updatedAt: sql`now()` })
        .where(
          inArray(
            billableItems.id,
            due.map((i) => i.id),
          ),
        );
    }
    const actorUserId = principal.user?.id ?? null;
    await tx.insert(events).values([
      {
        type: 'invoice.sent' as const,
        entityType: 'invoice',
        entityId: row.id,
        actorUserId,
        source: 'business' as const,
        important: true,
        changes: { number: row.number, status: { from: row.status, to: 'sent' } },
      },
      ...due.map((item) =>
        itemEvent('billable_item.invoice_sent', item, actorUserId, {
          status: { from: item.status, to: 'invoice_sent' },
          invoiceNumber: row.number,
        }),
      ),
    ]);
    return updated!;
  });
}
