import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import { fileNameOf, saveFile } from '../save-file';

/**
 * A client's clinical documents as one PDF (GDPR Art. 15, § 630g BGB), saved as a file. The
 * server records every document in it in the access log.
 */
export const exportClinicalDocumentsActor = (api: ApiClient) =>
  fromPromise<unknown, Readonly<Record<string, unknown>>>(async ({ input, signal }) => {
    const clientId = String(input.clientId);
    const { data, response } = await api.GET('/admin/client/{clientId}/clinical-export', {
      params: { path: { clientId } },
      parseAs: 'blob',
      signal,
    });
    saveFile(data as Blob, fileNameOf(response, `klinische-dokumente-${clientId}.pdf`));
    return null;
  });
