import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import type { components } from '../../../../shared/contract/product';
import type { ListPage, ListQuery } from '../../list.machine';
import type { LoadedRecord } from '../../record-form.machine';
import type { ActivePayload } from './query';
import { loadRecordActor, readRecordActor, saveRecordActor } from './record';

/** The staff workspace's user calls (`/users`): list, detail, form, (de)activation. */

type User = components['schemas']['User'];

/** `GET /user` for the list machine. */
export const loadUsersPageActor = (api: ApiClient) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const { data } = await api.GET('/user', {
      params: { query: { page: input.page, limit: input.limit } },
      signal,
    });
    return { rows: data!.users, itemCount: data!.itemCount };
  });

const getUser = (api: ApiClient) => (id: string, signal: AbortSignal) =>
  api.GET('/user/{id}', { params: { path: { id } }, signal });

/** `GET /user/{id}` as form values. */
export const loadUserRecordActor = (
  api: ApiClient,
  toValues: (user: User) => LoadedRecord['values'],
) => loadRecordActor(async (id, signal) => (await getUser(api)(id, signal)).data!, toValues);

/**
 * `POST /user` (new: answers the user and the one-time activation code) or `POST /user/{id}`
 * (role, coach link). The server refuses roles above the caller's own (403 role_not_assignable).
 */
export const saveUserActor = (api: ApiClient) =>
  saveRecordActor({
    create: (body: components['schemas']['CreateUserRequest'], signal) =>
      api.POST('/user', { body, signal }),
    update: (id, body: components['schemas']['UpdateUserRequest'], signal) =>
      api.POST('/user/{id}', { params: { path: { id } }, body, signal }),
  });

export const setUserActiveActor = (api: ApiClient) =>
  fromPromise<unknown, ActivePayload>(async ({ input, signal }) => {
    const { data } = await api.POST('/user/{id}', {
      params: { path: { id: String(input.id) } },
      body: { active: input.active === true },
      signal,
    });
    return data!;
  });

export const loadUserActor = (api: ApiClient) => readRecordActor<unknown>(getUser(api));
