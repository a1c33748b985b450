import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  lte,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { invoiceRuns, invoices } from '../../db/schema/index';
import { defineHandlers } from '../../http/handler';
import { badRequest, notFound } from '../../http/problem';
import { datevBuchungsstapel } from './datev';
import { practiceFor } from './document';
import { previewInvoiceRun, refuseUnready, runInvoices } from './run';
import { hasSellerIdentifier } from '../practice/index';
import { queueLargeRun, type InvoiceRunRow } from './run-job';
import { sendInvoice } from './send';
import { cancelInvoice } from './storno';
import { toInvoice, toSummary } from './view';

const canceller = alias(invoices, 'canceller');
// Everything but the documents, which only the downloads read.
const { pdf: _pdf, xml: _xml, ...columns } = getTableColumns(invoices);
const selectInvoices = (db: Db) =>
  db
    .select({
      ...columns,
      hasXml: sql<boolean>`${invoices.xml} IS NOT NULL`,
      cancelledBy: canceller.id,
    })
    .from(invoices)
    .leftJoin(canceller, eq(canceller.cancelsInvoiceId, invoices.id));

async function invoiceById(db: Db, id: string) {
  const [row] = await selectInvoices(db).where(eq(invoices.id, id));
  if (!row) throw notFound('invoice');
  return toInvoice(row, row.cancelledBy);
}

/** A queued run as GET /invoices/runs/{id} shows it; its invoices once it has finished. */
async function runView(db: Db, run: InvoiceRunRow) {
  const finished = run.status === 'done' || run.status === 'failed';
  const rows =
    finished && run.invoiceIds.length
      ? await selectInvoices(db)
          .where(inArray(invoices.id, run.invoiceIds))
          .orderBy(asc(invoices.year), asc(invoices.sequence))
      : [];
  return {
    id: run.id,
    status: run.status,
    payerCount: run.payerCount,
    dueItemCount: run.dueItemCount,
    itemCount: run.itemCount,
    invoiceCount: run.invoiceIds.length,
    invoices: rows.map((r) => toSummary(r, r.cancelledBy)),
    error: run.error,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
  };
}

const attachmentName = (name: string) => `attachment; filename="${name}"`;

/** /invoices…: ADMIN (SUPERADMIN passes); coaches and onboarding managers none. */
export const invoiceHandlers = defineHandlers({
  async listInvoices({ query, deps }) {
    const page = query.page ?? 1;
    const limit = query.limit ?? 10;
    const filters: SQL[] = [];
    if (query.status) filters.push(eq(invoices.status, query.status));
    if (query.year) filters.push(eq(invoices.year, query.year));
    if (query.fromDate && query.toDate && query.fromDate > query.toDate) {
      throw badRequest('toDate', 'before_from', 'toDate is before fromDate');
    }
    if (query.fromDate) filters.push(gte(invoices.invoiceDate, query.fromDate));
    if (query.toDate) filters.push(lte(invoices.invoiceDate, query.toDate));
    const where = filters.length ? and(...filters) : undefined;
    const [rows, [total]] = await Promise.all([
      selectInvoices(deps.db)
        .where(where)
        .orderBy(desc(invoices.year), desc(invoices.sequence))
        .limit(limit)
        .offset((page - 1) * limit),
      deps.db.select({ n: count() }).from(invoices).where(where),
    ]);
    return { invoices: rows.map((r) => toSummary(r, r.cancelledBy)), total: total!.n };
  },

  async createInvoiceRun({ body, principal, deps, reply }) {
    if (body.fromDate && body.toDate && body.fromDate > body.toDate) {
      throw badRequest('toDate', 'before_from', 'toDate is before fromDate');
    }
    const actor = principal.user?.id ?? null;
    refuseUnready(
      await previewInvoiceRun(deps.db, body),
      await practiceFor(deps.db, deps.config),
      body.issueWithoutAddress ?? false,
    );
    const queued = await queueLargeRun(
      deps.db,
      { jobs: deps.jobs, config: deps.config },
      actor,
      body,
    );
    if (queued) {
      reply.code(202);
      return runView(deps.db, queued);
    }
    const result = await runInvoices(deps.db, actor, deps.config, deps.now(), body);
    reply.code(201);
    return {
      invoices: result.invoices.map((r) => toSummary({ ...r, hasXml: r.xml !== null }, null)),
      itemCount: result.itemCount,
    };
  },

  async previewInvoiceRun({ query, deps }) {
    if (query.fromDate && query.toDate && query.fromDate > query.toDate) {
      throw badRequest('toDate', 'before_from', 'toDate is before fromDate');
    }
    const { xrechnungPayerCount, ...preview } = await previewInvoiceRun(deps.db, query);
    const practice = await practiceFor(deps.db, deps.config);
    return {
      ...preview,
      sellerIdentifierMissing: xrechnungPayerCount > 0 && !hasSellerIdentifier(practice),
    };
  },

  async getInvoiceRun({ params, deps }) {
    const [run] = await deps.db.select().from(invoiceRuns).where(eq(invoiceRuns.id, params.id));
    if (!run) throw notFound('invoice run');
    return runView(deps.db, run);
  },

  getInvoice: ({ params, deps }) => invoiceById(deps.db, params.id),

  async getInvoicePdf({ params, deps, reply }) {
    const [row] = await deps.db
      .select({ pdf: invoices.pdf, number: invoices.number, kind: invoices.kind })
      .from(invoices)
      .where(eq(invoices.id, params.id));
    if (!row) throw notFound('invoice');
    const prefix = row.kind === 'cancellation' ? 'Stornorechnung' : 'Rechnung';
    reply
      .type('application/pdf')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', attachmentName(`${prefix}_${row.number}.pdf`));
    return row.pdf as never;
  },

  async getInvoiceXRechnung({ params, deps, reply }) {
    const [row] = await deps.db
      .select({ xml: invoices.xml, number: invoices.number })
      .from(invoices)
      .where(eq(invoices.id, params.id));
    if (!row?.xml) throw notFound('XRechnung of this invoice');
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', attachmentName(`XRechnung_${row.number}.xml`));
    return row.xml as never;
  },

  async sendInvoice({ params, body, principal, deps }) {
    await sendInvoice(
      deps.db,
      principal,
      { jobs: deps.jobs, practice: await practiceFor(deps.db, deps.config) },
      deps.now(),
      params.id,
      body.email,
    );
    return invoiceById(deps.db, params.id);
  },

  async cancelInvoice({ params, body, principal, deps, reply }) {
    const row = await cancelInvoice(
      deps.db,
      principal,
      deps.config,
      deps.now(),
      params.id,
      body.reason,
    );
    reply.code(201);
    return invoiceById(deps.db, row.id);
  },

  async exportInvoicesDatev({ query, deps, reply }) {
    if (query.fromDate > query.toDate)
      throw badRequest('toDate', 'before_from', 'toDate is before fromDate');
    const rows = await deps.db
      .select({
        number: invoices.number,
        kind: invoices.kind,
        invoiceDate: invoices.invoiceDate,
        recipient: invoices.recipient,
        vatGroups: invoices.vatGroups,
      })
      .from(invoices)
      .where(
        and(gte(invoices.invoiceDate, query.fromDate), lte(invoices.invoiceDate, query.toDate)),
      )
      .orderBy(asc(invoices.year), asc(invoices.sequence));
    const file = datevBuchungsstapel(rows, deps.config, query, deps.now());
    reply
      .type('text/csv; charset=windows-1252')
      .header('cache-control', 'private, no-store')
      .header(
        'content-disposition',
        attachmentName(`EXTF_Buchungsstapel_${query.fromDate}_${query.toDate}.csv`),
      );
    return file as never;
  },
});
