import { expect } from 'vitest';
import type { TestRole } from '../../server/testing/test-app';
import { createApi, type Api, type ApiResponse } from '../support/api';

/** A well-formed id that names no record. */
export const SOME_ID = '6f1c2d3e-4b5a-4c6d-8e7f-001122334455';

/** A caller as `api.signIn` returns it (only the header is needed to call). */
export type Caller = { authorization: string };

type SignedIn = Awaited<ReturnType<Api['signIn']>>;

/**
 * The app for one test file, with one caller signed in per role, in the order given:
 * `beforeAll(async () => ({ api, callers: [admin, coach] } = await startApi({}, 'ADMIN', 'COACH')));`
 */
export async function startApi<const R extends readonly TestRole[]>(
  options: Parameters<typeof createApi>[0],
  ...roles: R
): Promise<{ api: Api; callers: { -readonly [K in keyof R]: SignedIn } }> {
  const api = await createApi(options);
  const callers: SignedIn[] = [];
  for (const role of roles) callers.push(await api.signIn(role));
  return { api, callers: callers as { -readonly [K in keyof R]: SignedIn } };
}

/** Builds the expectation message once, so a failing status shows the answer's body. */
const why = (res: ApiResponse) => `${res.status} ${JSON.stringify(res.body)}`;

export function expectStatus(res: ApiResponse, status: number) {
  expect(res.status, why(res)).toBe(status);
}

/** A problem+json answer with the given status (and stable code, when given). */
export function expectProblem(res: ApiResponse, status: number, code?: string) {
  expect(res.status, why(res)).toBe(status);
  expect(String(res.headers['content-type'])).toContain('application/problem+json');
  expect(res.body.status).toBe(status);
  if (code) expect(res.body.code, why(res)).toBe(code);
}

export const fieldsOf = (res: ApiResponse): string[] =>
  ((res.body?.errors ?? []) as Array<{ field: string }>).map((e) => e.field);

/**
 * True when an error names `field`, bare (`firstName`) or with its location (`body.firstName`).
 * The exact spelling the contract asks for is checked once, in bad-input.test.ts.
 */
export const namesField = (res: ApiResponse, field: string) =>
  fieldsOf(res).some((f) => f === field || f.endsWith(`.${field}`));

/** 400 problem+json whose `errors[]` names the field. */
export function expectFieldError(res: ApiResponse, field: string) {
  expectProblem(res, 400);
  expect(namesField(res, field), `errors should name ${field}: ${why(res)}`).toBe(true);
}

let counter = 0;
/** A short token unique within the run, for names and e-mail addresses. */
export const unique = (prefix = 'u') =>
  `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 5)}`;

const DAY = 24 * 60 * 60_000;
const today = () => {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  return d.getTime();
};

/** An instant `days` after today's UTC midnight at hh:mm UTC, as ISO 8601. */
export const at = (days: number, hour = 9, minute = 0) =>
  new Date(today() + days * DAY + (hour * 60 + minute) * 60_000).toISOString();

export const plusMinutes = (iso: string, minutes: number) =>
  new Date(Date.parse(iso) + minutes * 60_000).toISOString();

export const minutesFromNow = (minutes: number) => {
  const d = new Date(Date.now() + minutes * 60_000);
  d.setUTCSeconds(0, 0);
  return d.toISOString();
};

/** The calendar date in Europe/Berlin of an instant, `YYYY-MM-DD`. */
export const berlinDate = (instant: Date | string = new Date()) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Berlin',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(instant));

export async function newCoach(api: Api, as: Caller, body: Record<string, unknown> = {}) {
  const u = unique('c');
  const res = await api.call('POST', '/api/coach', {
    as,
    body: { firstName: 'Carla', lastName: `Coach-${u}`, email: `${u}@coach.example`, ...body },
  });
  expectStatus(res, 201);
  return res.body;
}

export async function newClient(api: Api, as: Caller, body: Record<string, unknown> = {}) {
  const u = unique('k');
  const res = await api.call('POST', '/api/admin/client', {
    as,
    body: { firstName: 'Klara', lastName: `Klient-${u}`, ...body },
  });
  expectStatus(res, 201);
  return res.body;
}

export interface AppointmentInput {
  clientId: string;
  coachId: string;
  startDate: string;
  minutes?: number;
  appointmentType?: string;
  [field: string]: unknown;
}

/**
 * `POST /appointment`. Tests date their bookings from today, so some land on a public holiday
 * on some days of the year: the booking gives the override reason staff give then (used only
 * on a holiday). A test of the holiday rule passes `availabilityOverrideReason: undefined`.
 */
export function bookAppointment(api: Api, as: Caller, input: AppointmentInput) {
  const { minutes = 30, appointmentType = 'followup', ...rest } = input;
  return api.call('POST', '/api/appointment', {
    as,
    body: {
      appointmentType,
      endDate: plusMinutes(input.startDate, minutes),
      availabilityOverrideReason: 'Testtermin',
      ...rest,
    },
  });
}

export async function newAppointment(api: Api, as: Caller, input: AppointmentInput) {
  const res = await bookAppointment(api, as, input);
  expectStatus(res, 201);
  return res.body;
}

export const ids = (items: Array<{ id: string }>) => items.map((x) => x.id);
