import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import type { components } from '../../../../shared/contract/product';
import type { ListPage, ListQuery } from '../../list.machine';
import type { LoadedRecord } from '../../record-form.machine';
import type { ActivePayload } from './query';
import { loadRecordActor, readRecordActor, saveRecordActor } from './record';

/** The staff workspace's coach calls (`/coaches`): list, detail, form, (de)activation. */

type Coach = components['schemas']['Coach'];

/** Coaches loaded in pages of 100 (the filters that `GET /coach` lacks are applied here). */
async function allCoaches(api: ApiClient, signal: AbortSignal): Promise<Coach[]> {
  const all: Coach[] = [];
  for (let page = 1; page <= 100; page++) {
    const { data } = await api.GET('/coach', { params: { query: { page, limit: 100 } }, signal });
    all.push(...data!.coaches);
    if (page * 100 >= data!.itemCount) break;
  }
  return all;
}

const slicePage = <Row>(rows: readonly Row[], query: ListQuery): ListPage<Row> => ({
  rows: rows.slice((query.page - 1) * query.limit, query.page * query.limit),
  itemCount: rows.length,
});

/**
 * The coaches list (`/coaches`). Without filters: `GET /coach` pages as they are. With a
 * search: `GET /coach/search` (active coaches by name or e-mail, at most 50; a search for
 * deactivated coaches finds none). With only the active filter: every coach, filtered and
 * paged here (`GET /coach` has no such parameter; staff lists are short).
 */
export const loadCoachesPageActor = (api: ApiClient) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const { search, active } = input.filters;
    if (search) {
      if (active === 'false') return { rows: [], itemCount: 0 };
      const { data } = await api.GET('/coach/search', {
        params: { query: { query: search, limit: 50 } },
        signal,
      });
      return slicePage(data!.coaches, input);
    }
    if (active === 'true' || active === 'false') {
      const wanted = active === 'true';
      return slicePage(
        (await allCoaches(api, signal)).filter((c) => c.active === wanted),
        input,
      );
    }
    const { data } = await api.GET('/coach', {
      params: { query: { page: input.page, limit: input.limit } },
      signal,
    });
    return { rows: data!.coaches, itemCount: data!.itemCount };
  });

const getCoach = (api: ApiClient) => (coachId: string, signal: AbortSignal) =>
  api.GET('/coach/{coachId}', { params: { path: { coachId } }, signal });

/** `GET /coach/{id}` as form values. */
export const loadCoachRecordActor = (
  api: ApiClient,
  toValues: (coach: Coach) => LoadedRecord['values'],
) => loadRecordActor(async (id, signal) => (await getCoach(api)(id, signal)).data!, toValues);

/** `POST /coach` (new) or `PUT /coach/{id}` (changed fields). */
export const saveCoachActor = (api: ApiClient) =>
  saveRecordActor({
    create: (body: components['schemas']['CreateCoachRequest'], signal, header) =>
      api.POST('/coach', { params: { header }, body, signal }),
    update: (coachId, body: components['schemas']['UpdateCoachRequest'], signal) =>
      api.PUT('/coach/{coachId}', { params: { path: { coachId } }, body, signal }),
  });

/** Deactivates (`DELETE /coach/{id}`: refused while live appointments lie ahead) or reactivates a coach. */
export const setCoachActiveActor = (api: ApiClient) =>
  fromPromise<unknown, ActivePayload>(async ({ input, signal }) => {
    const params = { path: { coachId: String(input.id) } };
    if (input.active === true)
      await api.PUT('/coach/{coachId}', { params, body: { active: true }, signal });
    else await api.DELETE('/coach/{coachId}', { params, signal });
  });

export const loadCoachActor = (api: ApiClient) => readRecordActor<unknown>(getCoach(api));
