import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import type { components, operations } from '../../../../shared/contract/product';
import type { DatevRange } from '../../datev-export.machine';
import type { DownloadRequest, SendRequest, CancelRequest } from '../../invoice-detail.machine';
import type { QueuedInvoiceRun, RunOutcome, RunRequest } from '../../invoice-run.machine';
import type { ListPage, ListQuery } from '../../list.machine';
import { fileNameOf, saveFile } from '../save-file';
import { defined } from './query';

/** The invoice screens' calls (`/invoices…`, ADMIN and SUPERADMIN). */

export type Invoice = components['schemas']['Invoice'];
export type InvoiceSummary = components['schemas']['InvoiceSummary'];
export type InvoiceRunPreview = components['schemas']['InvoiceRunPreview'];
export type InvoiceRunResult = components['schemas']['InvoiceRunResult'];
type ListInvoicesQuery = NonNullable<operations['listInvoices']['parameters']['query']>;

/** The `/billing/invoices` URL filters (`status`, `year`, invoice dates `from`/`to`) and page as API parameters. */
export const invoiceQueryOf = (query: ListQuery): ListInvoicesQuery =>
  defined({
    status: query.filters.status as ListInvoicesQuery['status'],
    year: query.filters.year ? Number(query.filters.year) : undefined,
    fromDate: query.filters.from,
    toDate: query.filters.to,
    page: query.page,
    limit: query.limit,
  });

/** `GET /invoices`: newest number first. */
export const loadInvoicesPageActor = (api: ApiClient) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const { data } = await api.GET('/invoices', {
      params: { query: invoiceQueryOf(input) },
      signal,
    });
    return { rows: data!.invoices, itemCount: data!.total };
  });

/** `GET /invoices/runs/preview`: items, payers and sum a run would take now. */
export const previewInvoiceRunActor = (api: ApiClient) =>
  fromPromise<InvoiceRunPreview, void>(async ({ signal }) => {
    const { data } = await api.GET('/invoices/runs/preview', { signal });
    return data!;
  });

/**
 * `POST /invoices/runs` with the run's Idempotency-Key (a retry after a lost answer issues
 * nothing twice): the invoices (201), or the queued run of a large one (202).
 */
export const runInvoicesActor = (api: ApiClient) =>
  fromPromise<RunOutcome, RunRequest>(async ({ input, signal }) => {
    const { data, response } = await api.POST('/invoices/runs', {
      params: { header: { 'Idempotency-Key': input.idempotencyKey } },
      body: { issueWithoutAddress: input.issueWithoutAddress },
      signal,
    });
    return response.status === 202
      ? { kind: 'queued', run: data as QueuedInvoiceRun }
      : { kind: 'issued', result: data as InvoiceRunResult };
  });

/** `GET /invoices/runs/{id}`: a queued run's progress and, once finished, its invoices. */
export const loadInvoiceRunActor = (api: ApiClient) =>
  fromPromise<QueuedInvoiceRun, { id: string }>(async ({ input, signal }) => {
    // Polled every second: each poll must see the progress, not a shared earlier answer.
    const { data } = await api.GET('/invoices/runs/{id}', {
      params: { path: { id: input.id } },
      signal,
      cache: 'no-store',
    });
    return data!;
  });

/** `GET /invoices/{id}`: lines, VAT groups, recipient. */
export const loadInvoiceActor = (api: ApiClient) =>
  fromPromise<Invoice, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/invoices/{id}', {
      params: { path: { id: input.id } },
      signal,
    });
    return data!;
  });

/** `POST /invoices/{id}/send`: mails it (to `email`, or the client's address) and answers the invoice now. */
export const sendInvoiceActor = (api: ApiClient) =>
  fromPromise<Invoice, SendRequest>(async ({ input, signal }) => {
    const { data } = await api.POST('/invoices/{id}/send', {
      params: { path: { id: input.id }, header: { 'Idempotency-Key': input.idempotencyKey } },
      body: input.email ? { email: input.email } : {},
      signal,
    });
    return data!;
  });

/** `POST /invoices/{id}/cancel`: the cancellation invoice (Storno). */
export const cancelInvoiceActor = (api: ApiClient) =>
  fromPromise<Invoice, CancelRequest>(async ({ input, signal }) => {
    const { data } = await api.POST('/invoices/{id}/cancel', {
      params: { path: { id: input.id }, header: { 'Idempotency-Key': input.idempotencyKey } },
      body: input.reason ? { reason: input.reason } : {},
      signal,
    });
    return data!;
  });

/** The PDF or the XRechnung of an invoice, saved under the server's file name. */
export const downloadInvoiceActor = (api: ApiClient) =>
  fromPromise<unknown, DownloadRequest>(async ({ input, signal }) => {
    const params = { path: { id: input.id } };
    const { data, response } =
      input.document === 'pdf'
        ? await api.GET('/invoices/{id}/pdf', { params, parseAs: 'blob', signal })
        : await api.GET('/invoices/{id}/xrechnung', { params, parseAs: 'blob', signal });
    saveFile(
      data as Blob,
      fileNameOf(response, `${input.number}.${input.document === 'pdf' ? 'pdf' : 'xml'}`),
    );
    return null;
  });

/** `GET /invoices/datev-export` of invoice dates in the range, saved as the server names it. */
export const exportDatevActor = (api: ApiClient) =>
  fromPromise<unknown, DatevRange>(async ({ input, signal }) => {
    const { data, response } = await api.GET('/invoices/datev-export', {
      params: { query: { fromDate: input.fromDate, toDate: input.toDate } },
      parseAs: 'blob',
      signal,
    });
    saveFile(
      data as Blob,
      fileNameOf(response, `EXTF_Buchungsstapel_${input.fromDate}_${input.toDate}.csv`),
    );
    return null;
  });
