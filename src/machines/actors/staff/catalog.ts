import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import { ApiError } from '../../../api/errors';
import type { components } from '../../../../shared/contract/product';
import type { ListPage, ListQuery } from '../../list.machine';
import type { LoadedRecord, SaveRequest } from '../../record-form.machine';

/**
 * The maintained lists' calls (`/admin/insurers`, `/admin/campaigns`; adding and changing is
 * ADMIN's and SUPERADMIN's). The lists are small and come whole, so the pages filter and page
 * them here.
 */

type Insurer = components['schemas']['Insurer'];
type Campaign = components['schemas']['Campaign'];

/** Rows whose words contain the search (case-insensitive) and whose status matches `active`. */
export function filterCatalog<Row extends { active: boolean }>(
  rows: readonly Row[],
  words: (row: Row) => string,
  query: ListQuery,
): ListPage<Row> {
  const search = (query.filters.search ?? '').toLocaleLowerCase('de');
  const active = query.filters.active;
  const kept = rows.filter(
    (r) =>
      (!search || words(r).toLocaleLowerCase('de').includes(search)) &&
      (active !== 'true' || r.active) &&
      (active !== 'false' || !r.active),
  );
  return { rows: kept.slice((query.page - 1) * query.limit, query.page * query.limit), itemCount: kept.length };
}

export const loadInsurersPageActor = (api: ApiClient) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const { data } = await api.GET('/admin/insurers', { signal });
    return filterCatalog(data!.insurers, (i) => `${i.name} ${i.ikNumber}`, input);
  });

export const loadCampaignsPageActor = (api: ApiClient) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const { data } = await api.GET('/admin/campaigns', { signal });
    return filterCatalog(data!.campaigns, (c) => `${c.code} ${c.name}`, input);
  });

const notFound = () => new ApiError({ status: 404, code: 'not_found', fieldErrors: [] });

/** One insurer as form values (there is no single GET: the list is small). */
export const loadInsurerRecordActor = (api: ApiClient, toValues: (insurer: Insurer) => LoadedRecord['values']) =>
  fromPromise<LoadedRecord, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/admin/insurers', { signal });
    const insurer = data!.insurers.find((i) => i.id === input.id);
    if (!insurer) throw notFound();
    return { values: toValues(insurer), record: insurer };
  });

/** One campaign as form values. */
export const loadCampaignRecordActor = (api: ApiClient, toValues: (campaign: Campaign) => LoadedRecord['values']) =>
  fromPromise<LoadedRecord, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/admin/campaigns', { signal });
    const campaign = data!.campaigns.find((c) => c.id === input.id);
    if (!campaign) throw notFound();
    return { values: toValues(campaign), record: campaign };
  });

/** `POST /admin/insurers` (new) or `PUT /admin/insurers/{id}` (changed fields). */
export const saveInsurerActor = (api: ApiClient) =>
  fromPromise<unknown, SaveRequest>(async ({ input, signal }) => {
    if (input.id === null) {
      const { data } = await api.POST('/admin/insurers', {
        body: input.body as components['schemas']['CreateInsurerRequest'],
        signal,
      });
      return data!;
    }
    const { data } = await api.PUT('/admin/insurers/{id}', {
      params: { path: { id: input.id } },
      body: input.body as components['schemas']['UpdateInsurerRequest'],
      signal,
    });
    return data!;
  });

/** `POST /admin/campaigns` (new) or `PUT /admin/campaigns/{id}` (changed fields). */
export const saveCampaignActor = (api: ApiClient) =>
  fromPromise<unknown, SaveRequest>(async ({ input, signal }) => {
    if (input.id === null) {
      const { data } = await api.POST('/admin/campaigns', {
        body: input.body as components['schemas']['CreateCampaignRequest'],
        signal,
      });
      return data!;
    }
    const { data } = await api.PUT('/admin/campaigns/{id}', {
      params: { path: { id: input.id } },
      body: input.body as components['schemas']['UpdateCampaignRequest'],
      signal,
    });
    return data!;
  });
