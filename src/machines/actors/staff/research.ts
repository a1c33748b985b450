import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import type { ResearchExportSummary } from '../../research-export.machine';
import { fileNameOf, saveFile } from '../save-file';

/** The research export page's calls (ADMIN, SUPERADMIN). */

/** `GET /admin/research-export/summary`: the consent count before the download. */
export const loadResearchSummaryActor = (api: ApiClient) =>
  fromPromise<ResearchExportSummary>(async ({ signal }) => {
    const { data } = await api.GET('/admin/research-export/summary', { signal });
    return data!;
  });

/** `GET /admin/export-research-data`, saved under the name the server gives it. */
export const downloadResearchExportActor = (api: ApiClient) =>
  fromPromise<unknown>(async ({ signal }) => {
    const { data, response } = await api.GET('/admin/export-research-data', {
      parseAs: 'blob',
      signal,
    });
    saveFile(data as Blob, fileNameOf(response, 'forschungsdaten.zip'));
    return null;
  });
