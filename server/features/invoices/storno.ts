import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { billableItems, events, invoiceItems, invoices } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { conflict, notFound } from '../../http/problem';
import { INVOICE_CANCELLATION_RETURNS } from '../../../shared/billing-transitions';
import { inTransaction } from '../../db/transaction';
import { practiceFor } from './document';
import { invoiceDates, storeInvoice, type InvoiceRow } from './issue';
import { itemEvent } from './item-events';
import { allocateNumbers, formatNumber } from './numbering';

/**
 * Storno: an invoice is never changed or deleted. A cancellation invoice with its own number
 * negates every line and VAT group; the original becomes `cancelled`, its item links die and
 * its items go back to `approved`, ready for a new invoice.
 */
export async function cancelInvoice(
  db: Db,
  principal: Principal,
  config: Config,
  now: Date,
  id: string,
  reason: string | undefined,
): Promise<InvoiceRow> {
  return inTransaction(db, async (tx) => {
    const [original] = await tx.select().from(invoices).where(eq(invoices.id, id)).for('update');
    if (!original) throw notFound('invoice');
    if (original.kind === 'cancellation' || original.status === 'cancelled') {
      throw conflict(
        'invoice_cancelled',
        'The invoice is cancelled or is itself a cancellation invoice',
      );
    }
    const practice = await practiceFor(tx, config);
    const { invoiceDate, dueDate, year } = invoiceDates(now, 0);
    const [sequence] = await allocateNumbers(tx, year, 1);
    const negate = <T extends { netCents: number; grossCents: number }>(x: T) => ({
      ...x,
      netCents: -x.netCents,
      grossCents: -x.grossCents,
    });
    const row = await storeInvoice(tx, {
      doc: {
        number: formatNumber(year, sequence!),
        kind: 'cancellation',
        invoiceDate,
        dueDate,
        serviceFrom: original.serviceFrom,
        serviceTo: original.serviceTo,
        recipient: original.recipient,
        lines: original.lines.map(negate),
        vatGroups: original.vatGroups.map((g) => ({ ...negate(g), vatCents: -g.vatCents })),
        netCents: -original.netCents,
        vatCents: -original.vatCents,
        grossCents: -original.grossCents,
        cancels: { number: original.number, invoiceDate: original.invoiceDate },
        cancellationReason: reason ?? null,
      },
      practice,
      year,
      sequence: sequence!,
      payerKind: original.payerKind,
      payerKey: original.payerKey,
      cancelsInvoiceId: original.id,
      createdById: principal.user?.id ?? null,
    });
    await tx
      .update(invoices)
      .set({ status: 'cancelled', cancelledAt: now.toISOString() })
      .where(eq(invoices.id, original.id));
    const links = await tx
      .update(invoiceItems)
      .set({ live: false })
      .where(and(eq(invoiceItems.invoiceId, original.id), eq(invoiceItems.live, true)))
      .returning({ itemId: invoiceItems.billableItemId });
    const itemIds = links.map((l) => l.itemId);
    const returned = itemIds.length
      ? await tx
          .update(billableItems)
          .set({
            status: INVOICE_CANCELLATION_RETURNS.to,
            invoiceSentAt: null,
            updatedAt: sql`now()`,
          })
          .where(
            and(
              inArray(billableItems.id, itemIds),
              inArray(billableItems.status, [...INVOICE_CANCELLATION_RETURNS.from]),
            ),
          )
          .returning()
      : [];
    const actorUserId = principal.user?.id ?? null;
    await tx.insert(events).values([
      {
        type: 'invoice.cancelled' as const,
        entityType: 'invoice',
        entityId: original.id,
        actorUserId,
        source: 'business' as const,
        important: true,
        changes: {
          number: original.number,
          cancellationNumber: row.number,
          status: { from: original.status, to: 'cancelled' },
        },
      },
      ...returned
        .filter((item) => item.status === 'approved')
        .map((item) =>
          itemEvent('billable_item.invoice_cancelled', item, actorUserId, {
            invoiceNumber: original.number,
            status: { to: 'approved' },
          }),
        ),
    ]);
    return row;
  });
}
