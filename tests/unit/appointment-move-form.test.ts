import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError } from '../../src/api/errors';
import type { ApiClient } from '../../src/api/client';
import type { components } from '../../shared/contract/product';
import { saveAppointmentActor } from '../../src/machines/actors/staff/appointments';
import {
  appointmentFormSchema,
  appointmentFormValues,
} from '../../src/forms/appointment-staff-form';
import { type LoadedRecord, recordFormMachine } from '../../src/machines/record-form.machine';

/**
 * The staff form moving an appointment: the record form with the appointment
 * schema and the real save actor over a fake API, so the test sees the requests the page
 * sends and what the page has to show after each answer.
 */

type Appointment = components['schemas']['Appointment'];

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

// 10:00–10:30 in Berlin (winter time) on 2 December 2030.
const STORED = {
  id: '55555555-5555-4555-8555-555555555555',
  startDate: '2030-12-02T09:00:00.000Z',
  endDate: '2030-12-02T09:30:00.000Z',
  appointmentType: 'followup',
  meetingType: 'jitsi',
  isProvisional: false,
  noShow: false,
  externalMeetingUrl: null,
} as unknown as Appointment;

const problem = (status: number, code: string, fieldErrors: ApiError['fieldErrors'] = []) =>
  new ApiError({ status, code, fieldErrors });

/** A form on STORED whose PUTs answer with `answers`, one after another. */
function editForm(answers: Array<Error | Appointment>) {
  const sent: Array<Record<string, unknown>> = [];
  const api = {
    PUT: async (_path: string, init: { body: Record<string, unknown> }) => {
      sent.push(init.body);
      const answer = answers.shift()!;
      if (answer instanceof Error) throw answer;
      return { data: answer };
    },
  } as unknown as ApiClient;
  const actor = createActor(
    recordFormMachine.provide({
      actors: {
        loadRecord: fromPromise<LoadedRecord, { id: string }>(async () => ({
          values: appointmentFormValues(STORED),
          record: STORED,
        })),
        saveRecord: saveAppointmentActor(api),
      },
    }),
    { input: { id: STORED.id, schema: appointmentFormSchema } },
  ).start();
  const change = (field: string, value: string | boolean) =>
    actor.send({ type: 'form.change', field, value });
  return { actor, sent, change };
}

describe('moving an appointment in the staff form', () => {
  it('shows a move into the past at the day, from the server’s startDate', async () => {
    const { actor, sent, change } = editForm([
      problem(400, 'validation_failed', [
        { field: 'startDate', code: 'start_in_past', message: 'only into the future' },
      ]),
    ]);
    await flush();
    change('date', '2020-01-10');
    actor.send({ type: 'form.submit' });
    await flush();
    expect(sent).toEqual([{ startDate: '2020-01-10T09:00:00Z', endDate: '2020-01-10T09:30:00Z' }]);
    const snap = actor.getSnapshot();
    expect(snap.matches('editing')).toBe(true);
    expect(snap.context.fieldErrors).toEqual({ date: 'start_in_past' });
  });

  it('offers the override after outside_availability and sends the reason with the move', async () => {
    const moved = { ...STORED, startDate: '2030-12-02T19:00:00.000Z' } as Appointment;
    const { actor, sent, change } = editForm([problem(409, 'outside_availability'), moved]);
    await flush();
    expect(actor.getSnapshot().context.lastConflict).toBeNull();
    change('startTime', '20:00');
    change('endTime', '20:30');
    actor.send({ type: 'form.submit' });
    await flush();
    expect(actor.getSnapshot().matches('conflict')).toBe(true);
    expect(actor.getSnapshot().context.error).toEqual({
      code: 'outside_availability',
      status: 409,
    });

    // Editing again, the page still knows why: it shows the override.
    actor.send({ type: 'form.edit' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.lastConflict).toBe('outside_availability');

    // Ticked without a reason: named at the reason, nothing sent.
    change('overrideAvailability', true);
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ overrideReason: 'value_missing' });
    expect(sent).toHaveLength(1);

    change('overrideReason', '  Klientin kann nur abends  ');
    actor.send({ type: 'form.submit' });
    await flush();
    expect(sent[1]).toEqual({
      startDate: '2030-12-02T19:00:00Z',
      endDate: '2030-12-02T19:30:00Z',
      availabilityOverrideReason: 'Klientin kann nur abends',
    });
    expect(actor.getSnapshot().matches('done')).toBe(true);
  });

  it('sends no reason while the override is not ticked', async () => {
    const { actor, sent, change } = editForm([STORED]);
    await flush();
    change('overrideReason', 'nicht angehakt');
    change('noShow', true);
    actor.send({ type: 'form.submit' });
    await flush();
    expect(sent).toEqual([{ noShow: true }]);
  });
});
