import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import type { SupportRequest } from '../support.machine';

/** `POST /support/message` (operation sendSupportMessage). */
export const sendSupportMessageActor = (api: ApiClient) =>
  fromPromise<{ id: string }, SupportRequest>(async ({ input, signal }) => {
    const { data } = await api.POST('/support/message', { body: input, signal });
    return data!;
  });
