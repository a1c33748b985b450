import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import type { components } from '../../../../shared/contract/product';
import type { ListPage, ListQuery } from '../../list.machine';
import type { LoadedRecord, SaveRequest } from '../../record-form.machine';
import type { ActivePayload } from './query';

/** The staff workspace's user calls (`/users`): list, detail, form, (de)activation. */

type User = components['schemas']['User'];

/** `GET /user` for the list machine. */
export const loadUsersPageActor = (api: ApiClient) =>
  fromPromise<ListPage, ListQuery>(async ({ input, signal }) => {
    const { data } = await api.GET('/user', { params: { query: { page: input.page, limit: input.limit } }, signal });
    return { rows: data!.users, itemCount: data!.itemCount };
  });

/** `GET /user/{id}` as form values. */
export const loadUserRecordActor = (api: ApiClient, toValues: (user: User) => LoadedRecord['values']) =>
  fromPromise<LoadedRecord, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/user/{id}', { params: { path: { id: input.id } }, signal });
    return { values: toValues(data!), record: data! };
  });

/**
 * `POST /user` (new: answers the user and the one-time activation code) or `POST /user/{id}`
 * (role, coach link). The server refuses roles above the caller's own (403 role_not_assignable).
 */
export const saveUserActor = (api: ApiClient) =>
  fromPromise<unknown, SaveRequest>(async ({ input, signal }) => {
    if (input.id === null) {
      const { data } = await api.POST('/user', {
        body: input.body as components['schemas']['CreateUserRequest'],
        signal,
      });
      return data!;
    }
    const { data } = await api.POST('/user/{id}', {
      params: { path: { id: input.id } },
      body: input.body as components['schemas']['UpdateUserRequest'],
      signal,
    });
    return data!;
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

export const loadUserActor = (api: ApiClient) =>
  fromPromise<unknown, { id: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/user/{id}', { params: { path: { id: input.id } }, signal });
    return data!;
  });
