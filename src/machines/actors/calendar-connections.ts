import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import type {
  CalendarConnection,
  ConnectionInput,
  CreateConnectionInput,
  UpdateConnectionInput,
} from '../calendar-connections.machine';

/** The API calls of "Verbundene Kalender" on the profile, as the actors its machine declares. */

const PATH = '/coach/{coachId}/calendar-connections';
const ONE = '/coach/{coachId}/calendar-connections/{connectionId}';

export const createCalendarConnectionsActors = (api: ApiClient) => ({
  loadConnections: fromPromise<CalendarConnection[], { coachId: string }>(
    async ({ input, signal }) => {
      const { data } = await api.GET(PATH, {
        params: { path: { coachId: input.coachId } },
        signal,
      });
      return data!.connections;
    },
  ),
  /** With an Idempotency-Key: a repeated request after a lost answer connects once. */
  createConnection: fromPromise<CalendarConnection, CreateConnectionInput>(
    async ({ input, signal }) => {
      const { data } = await api.POST(PATH, {
        params: {
          path: { coachId: input.coachId },
          header: { 'Idempotency-Key': input.idempotencyKey },
        },
        body: input.body,
        signal,
      });
      return data!;
    },
  ),
  updateConnection: fromPromise<CalendarConnection, UpdateConnectionInput>(
    async ({ input, signal }) => {
      const { data } = await api.PATCH(ONE, {
        params: { path: { coachId: input.coachId, connectionId: input.connectionId } },
        body: input.body,
        signal,
      });
      return data!;
    },
  ),
  syncConnection: fromPromise<CalendarConnection, ConnectionInput>(async ({ input, signal }) => {
    const { data } = await api.POST(`${ONE}/sync`, {
      params: { path: { coachId: input.coachId, connectionId: input.connectionId } },
      signal,
    });
    return data!;
  }),
  deleteConnection: fromPromise<void, ConnectionInput>(async ({ input, signal }) => {
    await api.DELETE(ONE, {
      params: { path: { coachId: input.coachId, connectionId: input.connectionId } },
      signal,
    });
  }),
});
