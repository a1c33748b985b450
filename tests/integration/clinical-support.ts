import { createApi, type Api } from '../support/api';
import { at, expectStatus, newAppointment, newClient, newCoach, type Caller } from './fixtures';

type SignedIn = Awaited<ReturnType<Api['signIn']>>;

/** A SOAP summary with every section and next steps: no blockers. */
export const SOAP = {
  format: 'SOAP',
  riskFlag: false,
  sections: {
    subjective: 'Schläft schlecht',
    objective: 'PSS 24',
    assessment: 'Stress hoch',
    plan: 'Atemübung',
  },
  nextSteps: 'Termin in 2 Wochen',
};

export const summaryUrl = (appointmentId: string) => `/api/appointment/${appointmentId}/summary`;

export type ClinicalApp = Awaited<ReturnType<typeof startClinical>>;

/**
 * The app of one clinical test file: an admin, an onboarding manager and two coaches (A, B)
 * signed in. `nextDay` is the next start of the file's own series of days (`firstDay` days from
 * today, 8:00); `held` books a held appointment of a new client the coach coaches on it;
 * `signedSummary` writes and signs a SOAP summary on one.
 */
export async function startClinical(options: {
  firstDay: number;
  /** The app's clock, for files that move it. */
  now?: () => Date;
  /** Coach A's record (names), when the file checks them. */
  coachA?: Record<string, unknown>;
}) {
  const api = await createApi(options.now ? { now: options.now } : {});
  const admin: SignedIn = await api.signIn('ADMIN');
  const om: SignedIn = await api.signIn('ONBOARDING_MANAGER');
  const coachAId: string = (await newCoach(api, admin, options.coachA)).id;
  const coachBId: string = (await newCoach(api, admin)).id;
  const coachA: SignedIn = await api.signIn('COACH', { coachId: coachAId });
  const coachB: SignedIn = await api.signIn('COACH', { coachId: coachBId });
  let day = options.firstDay;
  const nextDay = () => at(day++, 8);

  async function held(coachId = coachAId, minutes?: number) {
    const client = await newClient(api, admin, { coachedById: coachId });
    return newAppointment(api, admin, {
      clientId: client.id,
      coachId,
      startDate: nextDay(),
      minutes,
    });
  }

  async function signedSummary(as: Caller = coachA, coachId = coachAId) {
    const appointment = await held(coachId);
    const url = summaryUrl(appointment.id);
    expectStatus(await api.call('POST', url, { as, body: { content: SOAP } }), 201);
    const res = await api.call('PUT', url, { as, body: { status: 'sent' } });
    expectStatus(res, 200);
    return { appointment, summary: res.body };
  }

  return { api, admin, om, coachA, coachB, coachAId, coachBId, nextDay, held, signedSummary };
}
