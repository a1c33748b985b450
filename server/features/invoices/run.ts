import { and, asc, eq, gte, inArray, lte, notExists, sql, type SQL } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { billableItems, events, invoiceItems } from '../../db/schema/index';
import { HttpProblem, type FieldError } from '../../http/problem';
import { inTransaction } from '../../db/transaction';
import {
  practiceFor,
  requireSellerIdentifier,
  type InvoiceDocument,
  type Practice,
} from './document';
import { invoiceDates, storeInvoice, wantsXRechnung, type InvoiceRow } from './issue';
import { priceLines, totalsOf } from './money';
import { allocateNumbers, formatNumber } from './numbering';
import { missingAddress, payersOf, type Payer } from './recipients';

export interface RunRequest {
  itemIds?: string[] | undefined;
  fromDate?: string | undefined;
  toDate?: string | undefined;
}

type ItemRow = typeof billableItems.$inferSelect;

// One run at a time: the second waits, then sees the first one's invoiced items as taken.
const RUN_LOCK = sql`SELECT pg_advisory_xact_lock(hashtext('invoice-run'))`;

const onLiveInvoice = () =>
  notExists(
    sql`(SELECT 1 FROM ${invoiceItems} WHERE ${invoiceItems.billableItemId} = ${billableItems.id} AND ${invoiceItems.live})`,
  );

/** Approved items on no live invoice, narrowed as the request says: what a run takes. */
export function dueItemsOf(request: RunRequest): SQL | undefined {
  const filters: SQL[] = [eq(billableItems.status, 'approved'), onLiveInvoice()];
  if (request.itemIds) filters.push(inArray(billableItems.id, request.itemIds));
  if (request.fromDate) filters.push(gte(billableItems.serviceDate, request.fromDate));
  if (request.toDate) filters.push(lte(billableItems.serviceDate, request.toDate));
  return and(...filters);
}

/** The items by payer (one invoice each), in a stable order of payers. */
async function groupByPayer(tx: Tx | Db, items: ItemRow[]) {
  const payerOf = await payersOf(tx, items);
  const groups = new Map<string, { payer: Payer; items: ItemRow[] }>();
  for (const item of items) {
    const payer = payerOf(item);
    const group = groups.get(payer.key) ?? { payer, items: [] };
    group.items.push(item);
    groups.set(payer.key, group);
  }
  return [...groups.values()].sort((a, b) => a.payer.key.localeCompare(b.payer.key));
}

/**
 * What a run would issue now (items, payers, gross sum), read without locks: the screen's
 * question before the run. A run started later takes what is due then.
 */
export async function previewInvoiceRun(db: Db | Tx, request: RunRequest) {
  const items = await db.select().from(billableItems).where(dueItemsOf(request));
  const groups = items.length ? await groupByPayer(db, items) : [];
  const payersWithoutAddress = groups
    .map(({ payer, items: members }) => ({
      payer,
      missing: missingAddress(payer),
      itemCount: members.length,
    }))
    .filter((g) => g.missing.length > 0)
    .map(({ payer, missing, itemCount }) => ({
      payerKind: payer.payerKind as Exclude<Payer['payerKind'], 'client'>,
      name: payer.recipient.name,
      catalog: payer.catalog!.kind,
      catalogId: payer.catalog!.id,
      missing,
      itemCount,
    }));
  return {
    itemCount: items.length,
    payerCount: groups.length,
    grossCents: items.reduce((sum, item) => sum + item.amountCents, 0),
    payersWithoutAddress,
    /** Payers whose invoice would get an XRechnung at issue. */
    xrechnungPayerCount: groups.filter((g) => wantsXRechnung(g.payer.payerKind, g.payer.recipient))
      .length,
  };
}

/**
 * The questions a run must have answered before it issues anything: sponsors and insurers
 * without a complete invoice address (issued anyway only when asked for explicitly, 409
 * payer_address_missing naming them otherwise), and an XRechnung the practice cannot sign as
 * seller (no VAT id or register number: 409 seller_identifier_missing, rule BR-CO-26).
 */
export function refuseUnready(
  preview: Awaited<ReturnType<typeof previewInvoiceRun>>,
  practice: Pick<Practice, 'vatId' | 'registerNumber'>,
  issueWithoutAddress: boolean,
) {
  if (preview.payersWithoutAddress.length && !issueWithoutAddress) {
    const n = preview.payersWithoutAddress.length;
    throw new HttpProblem(
      409,
      'payer_address_missing',
      'Conflict',
      `${n} ${n === 1 ? 'Zahler hat' : 'Zahler haben'} keine vollständige Rechnungsanschrift; nichts erstellt`,
      preview.payersWithoutAddress.map((p) => ({
        field: 'issueWithoutAddress',
        code: 'payer_address_missing',
        message: `${p.name}: ${p.missing.join(', ')}`,
      })),
    );
  }
  if (preview.xrechnungPayerCount > 0) requireSellerIdentifier(practice);
}

/**
 * Issues one invoice per payer for the approved items that are on no live invoice, all in one
 * transaction: items locked, numbers allocated (gapless, see numbering.ts), documents rendered
 * and stored, items linked, one business event per invoice.
 */
export interface RunOptions {
  /**
   * Issue at most this many invoices (the first payers in order) and leave the rest due: the
   * background job's step. Named ids already invoiced by an earlier step are then not refused.
   */
  maxInvoices?: number;
  /** Called in the run's transaction with what it issued (the job records its progress). */
  onIssued?: (tx: Tx, issued: InvoiceRow[], itemCount: number) => Promise<void>;
}

export async function runInvoices(
  db: Db,
  actorUserId: string | null,
  config: Config,
  now: Date,
  request: RunRequest,
  options: RunOptions = {},
): Promise<{ invoices: InvoiceRow[]; itemCount: number }> {
  return inTransaction(db, async (tx) => {
    await tx.execute(RUN_LOCK);
    const locked = await tx
      .select()
      .from(billableItems)
      .where(dueItemsOf(request))
      .orderBy(asc(billableItems.id))
      .for('update');
    if (request.itemIds && options.maxInvoices === undefined)
      refuseMissing(request.itemIds, locked);
    if (locked.length === 0) return { invoices: [], itemCount: 0 };

    const ordered = (await groupByPayer(tx, locked)).slice(0, options.maxInvoices);
    const items = ordered.flatMap((g) => g.items);
    const practice = await practiceFor(tx, config);
    const { invoiceDate, dueDate, year } = invoiceDates(now, practice.paymentDays);
    const numbers = await allocateNumbers(tx, year, ordered.length);

    const issued: InvoiceRow[] = [];
    for (const [index, { payer, items: members }] of ordered.entries()) {
      members.sort(
        (a, b) => a.serviceDate.localeCompare(b.serviceDate) || a.id.localeCompare(b.id),
      );
      const { lines, vatGroups } = priceLines(
        members.map((m) => ({
          billableItemId: m.id,
          serviceDate: m.serviceDate,
          description: m.description,
          grossCents: m.amountCents,
          vatTreatment: m.vatTreatment,
          vatRatePercent: m.vatRatePercent,
          vatExemptionReason: m.vatExemptionReason,
        })),
      );
      const doc: InvoiceDocument = {
        number: formatNumber(year, numbers[index]!),
        kind: 'invoice',
        invoiceDate,
        dueDate,
        serviceFrom: members[0]!.serviceDate,
        serviceTo: members.at(-1)!.serviceDate,
        recipient: payer.recipient,
        lines,
        vatGroups,
        ...totalsOf(vatGroups),
        cancels: null,
        cancellationReason: null,
      };
      const row = await storeInvoice(tx, {
        doc,
        practice,
        year,
        sequence: numbers[index]!,
        payerKind: payer.payerKind,
        payerKey: payer.key,
        cancelsInvoiceId: null,
        createdById: actorUserId,
      });
      await tx
        .insert(invoiceItems)
        .values(members.map((m) => ({ invoiceId: row.id, billableItemId: m.id })));
      issued.push(row);
    }
    await tx.insert(events).values(
      issued.map((row) => ({
        type: 'invoice.issued' as const,
        entityType: 'invoice',
        entityId: row.id,
        actorUserId,
        source: 'business' as const,
        important: true,
        changes: { number: row.number, grossCents: row.grossCents, lineCount: row.lines.length },
      })),
    );
    await options.onIssued?.(tx, issued, items.length);
    return { invoices: issued, itemCount: items.length };
  });
}

/** Named items that are not approved, unknown or already invoiced refuse the whole run. */
export function refuseMissing(ids: string[], found: readonly { id: string }[]) {
  const have = new Set(found.map((i) => i.id));
  const offenders: (FieldError & { id: string })[] = [];
  ids.forEach((id, index) => {
    if (!have.has(id)) {
      offenders.push({
        field: `itemIds.${index}`,
        id,
        code: 'not_invoiceable',
        message: 'No approved item with this id that is on no invoice yet',
      });
    }
  });
  if (offenders.length) {
    throw new HttpProblem(
      409,
      'batch_refused',
      'Conflict',
      `${offenders.length} of ${ids.length} items cannot be invoiced; nothing issued`,
      offenders,
    );
  }
}
