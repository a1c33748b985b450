import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  calendarBusyTimes,
  calendarConnections,
  clients,
  connectedCalendars,
  patientCards,
} from '../../server/db/schema/index';
import type { Operation } from '../../server/http/contract';
import { allHandlers } from '../../server/features/index';
import { createApi, type Api, type ApiResponse } from '../support/api';
import { contractOperations } from '../support/contract-validator';
import { at, berlinDate, newAppointment, newClient, newCoach, type Caller } from './fixtures';

// The scope dimension of the authorisation matrix, generated from the contract: every
// implemented operation a coach or a client may call, for every id it takes (path, query,
// body) that names a client, coach, appointment or availability, is called with another
// coach's (or client's) record in that one place and the caller's own records everywhere
// else. The answer is 403 or 404 and the database is exactly as before (rows, queued mails
// and SMS, business events). A list filter may instead answer its list, as long as nothing
// of the other record shows. Operations still answering 501 join the sweep once implemented.
const operations = await contractOperations();

type Kind =
  | 'client'
  | 'coach'
  | 'appointment'
  | 'availability'
  | 'coachMeetingCode'
  | 'patientCard'
  | 'calendarConnection'
  | 'connectedCalendar';
type Caller_ = 'COACH' | 'NONE';

/** What an id names, from its name (a bare `{id}` from the path's first segment). */
function kindOf(op: Operation, name: string): Kind | 'unknown' | null {
  if (/^client(Id)?$/.test(name)) return 'client';
  if (/^(coach(Id)?|coachedById|existingClientOfCoachId|calendarid)$/.test(name)) return 'coach';
  if (name === 'appointmentId') return 'appointment';
  if (name === 'patientCardId') return 'patientCard';
  if (name === 'connectionId') return 'calendarConnection';
  if (/^(blockingCalendarIds|receivingCalendarId)$/.test(name)) return 'connectedCalendar';
  if (/^(coachMeetingCode|meetingCodeCoach)$/.test(name)) return 'coachMeetingCode';
  if (name === 'id') {
    const noun = op.path.split('/')[1];
    if (noun === 'appointment') return 'appointment';
    if (noun === 'availability') return 'availability';
    return 'unknown';
  }
  return /(Id|id|Ids)$/.test(name) ? 'unknown' : null;
}

interface Slot {
  in: 'path' | 'query' | 'body';
  name: string;
  kind: Kind | 'unknown';
  required: boolean;
  /** A body property that is a list of ids: the id is sent as a list of one. */
  list?: boolean;
}

function slotsOf(op: Operation): Slot[] {
  const slots: Slot[] = [];
  for (const p of op.definition.parameters ?? []) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    const kind = kindOf(op, p.name);
    if (kind) slots.push({ in: p.in, name: p.name, kind, required: p.required === true });
  }
  const body = op.definition.requestBody?.content?.['application/json']?.schema as
    { properties?: Record<string, { type?: string }>; required?: string[] } | undefined;
  for (const [name, schema] of Object.entries(body?.properties ?? {})) {
    const kind = kindOf(op, name);
    if (kind) {
      const required = !!body?.required?.includes(name);
      slots.push({ in: 'body', name, kind, required, list: schema?.type === 'array' });
    }
  }
  return slots;
}

/** Callers with a scope: coaches (their clients and appointments) and clients (their own). */
function callersOf(op: Operation): Caller_[] {
  if (op.access.kind !== 'bearer') return [];
  const roles = op.access.roles;
  const any = roles.includes('ANY');
  return (['COACH', 'NONE'] as const).filter((r) => any || roles.includes(r));
}

/**
 * Clients pick their coach from the pooled calendar (booking, reschedule): a coach id is not
 * something a client's scope limits. Everything else is scoped for both kinds of caller.
 */
const scopedFor = (caller: Caller_, kind: Kind | 'unknown') =>
  caller === 'COACH' || kind !== 'coach';

const window = () => ({ startDate: at(1), endDate: at(15) });

/**
 * The rest of a valid request, for operations that need more than their ids. A new operation
 * that needs one fails the sweep (400 instead of 403/404) until it is added here.
 */
const BASE: Record<
  string,
  (api: Api) => { query?: Record<string, string | number>; body?: object }
> = {
  createAppointment: () => ({
    body: { startDate: at(20, 9), endDate: at(20, 10), appointmentType: 'followup' },
  }),
  updateAppointment: () => ({ body: { appointmentType: 'followup' } }),
  resendAppointmentInvites: (api) => ({
    body: { meetingBaseUrl: new URL('/termin/', api.config.PUBLIC_URL).toString() },
  }),
  listUpcomingAppointments: () => ({ query: { forDate: berlinDate() } }),
  listAvailability: () => ({ query: window() }),
  createAvailability: () => ({
    body: { startDay: berlinDate(at(30)), startTime: '09:00', endTime: '12:00' },
  }),
  updateAvailability: () => ({ body: { note: 'Geändert' } }),
  updateAvailabilityOccurrence: () => ({
    body: { occurrenceDate: berlinDate(at(21)), startDate: at(21, 10), endDate: at(21, 11) },
  }),
  deleteAvailabilityOccurrence: () => ({ query: { occurrenceDate: berlinDate(at(21)) } }),
  listAvailableSlotsForCalendar: () => ({ query: { ...window(), duration: 30 } }),
  listCalendarEvents: () => ({ query: window() }),
  updateClient: () => ({ body: { notes: 'Geändert' } }),
  rescheduleInitialAppointment: () => ({ body: { startDate: at(22, 9) } }),
  createAppointmentSummary: () => ({ body: { content: { format: 'SOAP', riskFlag: false } } }),
  updateAppointmentSummary: () => ({ body: { content: { format: 'SOAP', riskFlag: false } } }),
  amendAppointmentSummary: () => ({ body: { reason: 'Ergänzung', text: 'Nachtrag' } }),
  updatePatientCard: () => ({ body: { content: { reason: 'Geändert' } } }),
  amendPatientCard: () => ({ body: { reason: 'Ergänzung', text: 'Nachtrag' } }),
  // Refused before the server is tried: nothing listens on port 9.
  createCalendarConnection: () => ({
    body: { serverUrl: 'http://127.0.0.1:9/', username: 'coach', password: 'geheim' },
  }),
};

interface Cases {
  op: Operation;
  caller: Caller_;
  slot: Slot;
}

const cases: Cases[] = operations
  .filter((op) => op.operationId in allHandlers)
  .flatMap((op) =>
    callersOf(op).flatMap((caller) =>
      slotsOf(op)
        .filter((slot) => scopedFor(caller, slot.kind))
        .map((slot) => ({ op, caller, slot })),
    ),
  );

let api: Api;
const callers = new Map<Caller_, Caller>();
/** The caller's own records (filling every other id) and the other party's (the one tried). */
const own = new Map<Caller_, Partial<Record<Kind, string>>>();
let foreign: Record<Kind, string>;
/** Whatever of the other party's records must not show in any answer. */
let markers: string[];

async function availability(as: Caller, coachId: string) {
  const res = await api.call('POST', '/api/availability', {
    as,
    body: {
      coachId,
      startDay: berlinDate(at(21)),
      startTime: '08:00',
      endTime: '18:00',
      recurrence: 'FREQ=WEEKLY;COUNT=4',
    },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

beforeAll(async () => {
  api = await createApi();
  const admin = await api.signIn('ADMIN');
  const coach = await api.signIn('COACH');
  const other = await newCoach(api, admin, { firstName: 'Fremdcoach', lastName: 'Bertram' });
  const ownClient = await newClient(api, admin, { coachedById: coach.coachId });
  const theirs = await newClient(api, admin, {
    firstName: 'Fenja',
    lastName: 'Fremdklientin',
    email: 'fenja.fremd@example.test',
    telephone: '0151 99887766',
    coachedById: other.id,
  });
  const ownAppointment = await newAppointment(api, admin, {
    clientId: ownClient.id,
    coachId: coach.coachId!,
    startDate: at(3, 9),
  });
  const theirAppointment = await newAppointment(api, admin, {
    clientId: theirs.id,
    coachId: other.id,
    startDate: at(3, 9),
  });
  // Patient cards straight in the table: the appointments above lie ahead, so none is held yet.
  const card = async (clientId: string, appointmentId: string, coachId: string) =>
    (
      await api.database.db
        .insert(patientCards)
        .values({ clientId, appointmentId, coachId, content: {} })
        .returning({ id: patientCards.id })
    )[0]!.id;
  // Calendar connections straight in the tables: connecting needs a CalDAV server.
  const connection = async (coachId: string) => {
    const [row] = await api.database.db
      .insert(calendarConnections)
      .values({
        coachId,
        serverUrl: 'https://dav.example.test/',
        username: 'u',
        sealedPassword: 'x',
      })
      .returning({ id: calendarConnections.id });
    const [calendar] = await api.database.db
      .insert(connectedCalendars)
      .values({
        connectionId: row!.id,
        url: 'https://dav.example.test/c/',
        displayName: 'Privat',
        blocks: true,
      })
      .returning({ id: connectedCalendars.id });
    // A kept busy time in the listed window: the staff calendar shows it to whoever sees the
    // coach's appointments, and to nobody else.
    await api.database.db.insert(calendarBusyTimes).values({
      calendarId: calendar!.id,
      coachId,
      href: '/c/privat.ics',
      startDate: at(4, 14),
      endDate: at(4, 15),
    });
    return { connection: row!.id, calendar: calendar!.id };
  };
  const ownCalendar = await connection(coach.coachId!);
  const theirCalendar = await connection(other.id);
  callers.set('COACH', coach);
  own.set('COACH', {
    calendarConnection: ownCalendar.connection,
    connectedCalendar: ownCalendar.calendar,
    patientCard: await card(ownClient.id, ownAppointment.id, coach.coachId!),
    client: ownClient.id,
    coach: coach.coachId!,
    appointment: ownAppointment.id,
    availability: await availability(admin, coach.coachId!),
    coachMeetingCode: ownAppointment.meetingCodeCoach,
  });
  const person = await api.signIn('NONE');
  const [record] = await api.database.db
    .insert(clients)
    .values({
      firstName: 'Karl',
      lastName: 'Klient',
      userId: person.userId,
      coachedById: coach.coachId,
    })
    .returning({ id: clients.id });
  callers.set('NONE', person);
  own.set('NONE', { client: record!.id, coach: coach.coachId! });
  foreign = {
    client: theirs.id,
    coach: other.id,
    appointment: theirAppointment.id,
    availability: await availability(admin, other.id),
    coachMeetingCode: theirAppointment.meetingCodeCoach,
    patientCard: await card(theirs.id, theirAppointment.id, other.id),
    calendarConnection: theirCalendar.connection,
    connectedCalendar: theirCalendar.calendar,
  };
  markers = [
    theirs.id,
    'Fenja',
    'Fremdklientin',
    'fenja.fremd@example.test',
    '99887766',
    other.id,
    'Fremdcoach',
    theirAppointment.id,
    theirAppointment.meetingCodeCoach,
    theirAppointment.meetingCodeClient,
    foreign.availability,
  ];
});
afterAll(() => api.close());

/** Every table's content, as one fingerprint per table. */
async function snapshot(): Promise<Record<string, string>> {
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await api.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const tables = await rows<{ name: string }>(
    sql`SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const result: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await rows<{ digest: string | null }>(
      sql`SELECT md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))) AS digest FROM ${sql.identifier(name)} t`,
    );
    result[name] = row?.digest ?? 'empty';
  }
  return result;
}

function request({ op, caller, slot }: Cases) {
  const base = BASE[op.operationId]?.(api) ?? {};
  const mine = own.get(caller)!;
  const tried = (s: Slot) => s.in === slot.in && s.name === slot.name;
  const valueOf = (s: Slot) => {
    if (s.kind === 'unknown') throw new Error(`Teach the sweep what ${s.name} names`);
    const value = tried(s) ? foreign[s.kind] : mine[s.kind];
    if (value === undefined) throw new Error(`No own ${s.kind} for a ${caller}`);
    return value;
  };
  const slots = slotsOf(op);
  // The tried id, and the caller's own record for every other required id.
  const used = slots.filter((s) => tried(s) || s.required || s.in === 'path');
  let url = `/api${op.path}`;
  const query: Record<string, string | number> = { ...base.query };
  const body: Record<string, unknown> = { ...(base.body as object) };
  for (const s of used) {
    const value = valueOf(s);
    if (s.in === 'path') url = url.replace(`{${s.name}}`, encodeURIComponent(value));
    else if (s.in === 'query') query[s.name] = value;
    else body[s.name] = s.list ? [value] : value;
  }
  const hasBody = op.definition.requestBody !== undefined;
  return { url, query, ...(hasBody ? { body } : {}) };
}

describe('scope: another coach’s or client’s record, named by id', () => {
  it('covers the ids the issue names', () => {
    const names = cases.map((c) => `${c.op.operationId}.${c.slot.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'createAppointment.clientId',
        'createAppointment.coachId',
        'updateClient.coachedById',
        'updateClient.clientId',
        'listAppointmentCommunications.appointmentId',
        'listClientCommunications.clientId',
        'listAppointments.clientId',
        'getInitialAppointment.appointmentId',
      ]),
    );
    console.log(`Scope sweep: ${cases.length} (operation, caller, id) cases`);
  });

  it('sees a change the caller may make (the fingerprint is not blind)', async () => {
    const before = await snapshot();
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining(['clients', 'appointments', 'communications', 'events']),
    );
    const res = await api.call('PUT', `/api/admin/client/${own.get('COACH')!.client}`, {
      as: callers.get('COACH')!,
      body: { notes: 'Eigene Notiz' },
    });
    expect(res.status).toBe(200);
    const after = await snapshot();
    expect(after.clients).not.toBe(before.clients);
    expect(after.events).not.toBe(before.events);
  });

  it.each(
    cases.map(
      (c) =>
        [
          `${c.caller} ${c.op.method.toUpperCase()} ${c.op.path} ${c.slot.in}.${c.slot.name}`,
          c,
        ] as const,
    ),
  )('%s', async (_name, c) => {
    const before = await snapshot();
    const { url, query, body } = request(c);
    const res: ApiResponse = await api.call(c.op.method, url, {
      as: callers.get(c.caller)!,
      query,
      ...(body ? { body } : {}),
    });
    const text = JSON.stringify(res.body);
    const leaked = markers.filter((m) => text.includes(m));
    const listFilter = c.op.method === 'get' && c.slot.in === 'query';
    if (listFilter && res.status >= 200 && res.status < 300) {
      expect(leaked, `answer shows the other record: ${text.slice(0, 300)}`).toEqual([]);
    } else {
      expect([403, 404], `${res.status} ${text.slice(0, 300)}`).toContain(res.status);
    }
    expect(await snapshot()).toEqual(before);
  });
});
