import { HttpProblem, type FieldError } from './problem';

/** One refused id of a batch: where it stood in the list, why, and its status then. */
export type BatchOffender = FieldError & { id: string; status?: string };

/**
 * The all-or-nothing check of a batch over rows already locked: every id that is unknown
 * (or out of reach) or whose row's status does not allow the step, named by its place.
 */
export function batchOffenders<R extends { status: string }>(
  ids: string[],
  byId: Map<string, R>,
  allowed: (row: R) => boolean,
  messages: { notFound: string; notAllowed: (row: R) => string },
): BatchOffender[] {
  const offenders: BatchOffender[] = [];
  ids.forEach((id, index) => {
    const row = byId.get(id);
    const field = `ids.${index}`;
    if (!row) offenders.push({ field, id, code: 'not_found', message: messages.notFound });
    else if (!allowed(row)) {
      offenders.push({
        field,
        id,
        status: row.status,
        code: 'invalid_transition',
        message: messages.notAllowed(row),
      });
    }
  });
  return offenders;
}

/** 409 batch_refused naming every offender; nothing was changed. */
export const batchRefused = (detail: string, offenders: BatchOffender[]) =>
  new HttpProblem(409, 'batch_refused', 'Conflict', detail, offenders);
