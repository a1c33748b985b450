import { fromPromise } from 'xstate';
import { ApiError } from '../../../api/errors';
import type { LoadedRecord, SaveRequest } from '../../record-form.machine';

/**
 * The generic record calls of the staff workspace: every staff form (appointments, clients,
 * coaches, users, insurers, campaigns, billing rules) loads one record as form values and saves
 * it as a create (no id yet) or an update (changed fields). Each area passes only its API
 * calls; the typed `api.GET/POST/PUT` stays with the area, the flow around it lives here once.
 */

/** An API answer as `openapi-fetch` gives it (errors are thrown by the client's middleware). */
interface Answer<Data> {
  data?: Data;
}

/** The Idempotency-Key header of a create, as `params.header` (empty when there is none). */
export type IdempotencyHeader = { 'Idempotency-Key'?: string };

/** A 404 as the API would answer it, for records read out of a whole list. */
export const notFound = () => new ApiError({ status: 404, code: 'not_found', fieldErrors: [] });

/** One record out of a list that the API sends whole (no single read); 404 when it is gone. */
export const findOrNotFound = <Row extends { id: string }>(
  rows: readonly Row[],
  id: string,
): Row => {
  const found = rows.find((r) => r.id === id);
  if (!found) throw notFound();
  return found;
};

/** A single read (`GET …/{id}`) as an actor that answers the record itself. */
export const readRecordActor = <Row>(
  read: (id: string, signal: AbortSignal) => Promise<Answer<Row>>,
) =>
  fromPromise<Row, { id: string }>(
    async ({ input, signal }) => (await read(input.id, signal)).data!,
  );

/** One record as the record form's values (`toValues`) with the record itself. */
export const loadRecordActor = <Row>(
  read: (id: string, signal: AbortSignal) => Promise<Row>,
  toValues: (row: Row) => LoadedRecord['values'],
) =>
  fromPromise<LoadedRecord, { id: string }>(async ({ input, signal }) => {
    const record = await read(input.id, signal);
    return { values: toValues(record), record };
  });

/** The record form's save: `create` for a new record, `update` with the id for changed fields. */
export const saveRecordActor = (calls: {
  /** `key`: the create's Idempotency-Key (SaveRequest), to send as the header. */
  create?: (body: never, signal: AbortSignal, key: IdempotencyHeader) => Promise<Answer<unknown>>;
  update: (id: string, body: never, signal: AbortSignal) => Promise<Answer<unknown>>;
}) =>
  fromPromise<unknown, SaveRequest>(async ({ input, signal }) => {
    const body = input.body as never;
    if (input.id === null) {
      if (!calls.create) throw new Error('this record cannot be created here');
      const key = input.idempotencyKey ? { 'Idempotency-Key': input.idempotencyKey } : {};
      return (await calls.create(body, signal, key)).data!;
    }
    return (await calls.update(input.id, body, signal)).data!;
  });
