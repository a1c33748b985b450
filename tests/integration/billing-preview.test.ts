import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../support/api';
import { ADDRESS, makeRule } from './billing-support';
import {
  at,
  expectProblem,
  expectStatus,
  newAppointment,
  newClient,
  newCoach,
  startApi,
  SOME_ID,
  type Caller,
} from './fixtures';

let api: Api;
let admin: Caller;
let coach: Caller;

beforeAll(async () => {
  ({
    api,
    callers: [admin, coach],
  } = await startApi({}, 'ADMIN', 'COACH'));
});
afterAll(() => api.close());

const preview = (appointmentId: string, as = admin) =>
  api.call('GET', '/api/admin/billing-rules/preview', { as, query: { appointmentId } });

describe('rule preview', () => {
  it('names the matching rule and why the rules above it did not match', async () => {
    const coachId = (await newCoach(api, admin)).id;
    const client = await newClient(api, admin, { ...ADDRESS, insurer: 'TK' });
    const tk = await makeRule(api, admin, {
      name: 'AOK',
      amountCents: 1,
      description: 'a',
      insurer: 'AOK Bayern',
      noShow: true,
    });
    const off = await makeRule(api, admin, {
      name: 'Aus',
      amountCents: 1,
      description: 'b',
      active: false,
    });
    const match = await makeRule(api, admin, {
      name: 'Folgetermin',
      amountCents: 6500,
      description: 'c',
      appointmentType: 'followup',
    });
    await makeRule(api, admin, { name: 'Danach', amountCents: 1, description: 'd' });
    // A future appointment is previewed as if it were over.
    const appointment = await newAppointment(api, admin, {
      clientId: client.id,
      coachId,
      startDate: at(3, 8),
    });
    const res = await preview(appointment.id);
    expectStatus(res, 200);
    expect(res.body).toEqual({
      appointmentId: appointment.id,
      // Named as people know it, and what the matching rule would bill.
      appointment: {
        startDate: appointment.startDate,
        appointmentType: 'followup',
        client: { id: client.id, firstName: 'Klara', lastName: client.lastName },
      },
      item: {
        amountCents: 6500,
        description: 'c',
        vatTreatment: 'standard',
        vatRatePercent: 19,
        payerKind: 'client',
      },
      occasion: 'completed',
      matchedRuleId: match.id,
      rules: [
        {
          ruleId: tk.id,
          name: 'AOK',
          position: 0,
          outcome: 'not_matched',
          failedCriteria: ['insurer', 'noShow'],
        },
        { ruleId: off.id, name: 'Aus', position: 1, outcome: 'inactive', failedCriteria: [] },
        {
          ruleId: match.id,
          name: 'Folgetermin',
          position: 2,
          outcome: 'matched',
          failedCriteria: [],
        },
      ],
      validationErrors: [],
    });
    // Writes nothing.
    const list = await api.call('GET', '/api/billable-items', { as: admin });
    expect(list.body.itemCount).toBe(0);

    const cancelled = await newAppointment(api, admin, {
      clientId: client.id,
      coachId,
      startDate: at(5, 8),
    });
    expectStatus(await api.call('DELETE', `/api/appointment/${cancelled.id}`, { as: admin }), 200);
    expectProblem(await preview(cancelled.id), 409, 'appointment_not_billable');
  });

  it('404 for an unknown appointment, 403 for a coach', async () => {
    expectProblem(await preview(SOME_ID), 404);
    expectProblem(await preview(SOME_ID, coach), 403);
  });
});
