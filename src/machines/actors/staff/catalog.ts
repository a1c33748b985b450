import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import type { components } from '../../../../shared/contract/product';
import type { ListPage, ListQuery } from '../../list.machine';
import type { LoadedRecord } from '../../record-form.machine';
import { findOrNotFound, loadRecordActor, saveRecordActor } from './record';

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
  return {
    rows: kept.slice((query.page - 1) * query.limit, query.page * query.limit),
    itemCount: kept.length,
  };
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

/** One insurer as form values (there is no single GET: the list is small). */
export const loadInsurerRecordActor = (
  api: ApiClient,
  toValues: (insurer: Insurer) => LoadedRecord['values'],
) =>
  loadRecordActor(
    async (id, signal) =>
      findOrNotFound((await api.GET('/admin/insurers', { signal })).data!.insurers, id),
    toValues,
  );

/** One campaign as form values. */
export const loadCampaignRecordActor = (
  api: ApiClient,
  toValues: (campaign: Campaign) => LoadedRecord['values'],
) =>
  loadRecordActor(
    async (id, signal) =>
      findOrNotFound((await api.GET('/admin/campaigns', { signal })).data!.campaigns, id),
    toValues,
  );

/** `POST /admin/insurers` (new) or `PUT /admin/insurers/{id}` (changed fields). */
export const saveInsurerActor = (api: ApiClient) =>
  saveRecordActor({
    create: (body: components['schemas']['CreateInsurerRequest'], signal, header) =>
      api.POST('/admin/insurers', { params: { header }, body, signal }),
    update: (id, body: components['schemas']['UpdateInsurerRequest'], signal) =>
      api.PUT('/admin/insurers/{id}', { params: { path: { id } }, body, signal }),
  });

/** `POST /admin/campaigns` (new) or `PUT /admin/campaigns/{id}` (changed fields). */
export const saveCampaignActor = (api: ApiClient) =>
  saveRecordActor({
    create: (body: components['schemas']['CreateCampaignRequest'], signal, header) =>
      api.POST('/admin/campaigns', { params: { header }, body, signal }),
    update: (id, body: components['schemas']['UpdateCampaignRequest'], signal) =>
      api.PUT('/admin/campaigns/{id}', { params: { path: { id } }, body, signal }),
  });
