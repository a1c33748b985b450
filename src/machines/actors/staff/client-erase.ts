import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';

/**
 * `DELETE /admin/client/{id}` (ADMIN): the GDPR erasure. The server deletes the client, their
 * appointments, messages and billable items not yet invoiced, keeps the clinical documents
 * (without a link to the person) and refuses with 409 `client_has_invoiced_items` once invoices
 * were sent.
 */
export const eraseClientActor = (api: ApiClient) =>
  fromPromise<unknown, Readonly<Record<string, unknown>>>(async ({ input, signal }) => {
    await api.DELETE('/admin/client/{clientId}', {
      params: { path: { clientId: String(input.id) } },
      signal,
    });
  });
