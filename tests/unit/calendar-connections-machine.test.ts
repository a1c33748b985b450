import { describe, expect, it } from 'vitest';
import {
  calendarConnectionsMachine,
  MAX_POLLS,
  POLL_MS,
  type CalendarConnection,
} from '../../src/machines/calendar-connections.machine';
import { describeModel, done, failed, flush, startMachine } from '../support/model';

/**
 * "Verbundene Kalender" on the profile: connecting an account (empty fields, the calendar
 * server's refusals at their field, the Idempotency-Key kept for a retry), choosing which
 * calendars block and which receives, the all-day setting, "Jetzt abgleichen" with the reloads
 * until the background sync has run, and disconnecting only after the question.
 */

const problem = (status: number, code: string, fieldErrors: unknown[] = []) =>
  Object.assign(new Error(code), { status, code, fieldErrors });
const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });
const UNAUTHORIZED = problem(422, 'calendar_unauthorized');
const REFUSED = problem(400, 'calendar_server_refused', [
  { field: 'body.serverUrl', code: 'calendar_server_refused' },
]);

const CONN: CalendarConnection = {
  id: 'c1',
  coachId: 'k1',
  serverUrl: 'https://cloud.example.de/remote.php/dav',
  username: 'anna',
  allDayBlocks: true,
  shareClientFirstName: false,
  status: 'pending',
  writeErrorCode: null,
  errorCode: null,
  lastSyncedAt: null,
  lastAttemptAt: null,
  busyTimes: 0,
  calendars: [
    { id: 'cal1', displayName: 'Privat', blocks: false, receives: false },
    { id: 'cal2', displayName: 'Praxis', blocks: false, receives: false },
  ],
  createdAt: '2026-12-07T09:00:00.000Z',
};
const BLOCKING: CalendarConnection = {
  ...CONN,
  calendars: [{ ...CONN.calendars[0]!, blocks: true }, CONN.calendars[1]!],
};
const SYNCED: CalendarConnection = {
  ...CONN,
  status: 'ok',
  lastSyncedAt: '2026-12-07T09:01:00.000Z',
  lastAttemptAt: '2026-12-07T09:01:00.000Z',
  busyTimes: 3,
};

const DELAY = 'xstate.after.pollDelay.calendarConnections.ready.watch.waiting';
const BLOCK = { type: 'calendar.block', connectionId: 'c1', calendarId: 'cal1', blocks: true };

describeModel('calendar connections machine, model-based', {
  machine: calendarConnectionsMachine,
  plans: [
    {
      name: 'connecting',
      input: { coachId: 'k1' },
      events: [
        done('loadConnections', []),
        failed('loadConnections', NETWORK),
        { type: 'list.retry' },
        {
          type: 'form.change',
          field: 'serverUrl',
          value: ' https://cloud.example.de/remote.php/dav ',
        },
        { type: 'form.change', field: 'username', value: 'anna' },
        { type: 'form.change', field: 'password', value: 'app-pass' },
        { type: 'form.submit' },
        { type: 'form.open' },
        { type: 'form.close' },
        done('createConnection', CONN),
        failed('createConnection', UNAUTHORIZED),
        failed('createConnection', REFUSED),
        failed('createConnection', NETWORK),
      ],
      serialize: (s) => ({
        has: s.context.connections.length > 0,
        form: s.context.formOpen,
        filled: Object.values(s.context.draft).filter(Boolean).length,
        fields: Object.keys(s.context.fieldErrors).sort(),
        error: s.context.error?.code ?? null,
      }),
    },
    {
      name: 'managing',
      input: { coachId: 'k1' },
      events: [
        done('loadConnections', [CONN]),
        BLOCK,
        { type: 'calendar.receive', connectionId: 'c1', calendarId: 'cal2' },
        { type: 'setting.set', connectionId: 'c1', setting: { allDayBlocks: false } },
        { type: 'setting.set', connectionId: 'c1', setting: { shareClientFirstName: true } },
        { type: 'connection.sync', connectionId: 'c1' },
        { type: 'connection.disconnect', connectionId: 'c1' },
        { type: 'disconnect.confirm' },
        { type: 'disconnect.abort' },
        done('updateConnection', BLOCKING),
        failed('updateConnection', NETWORK),
        done('syncConnection', CONN),
        failed('syncConnection', NETWORK),
        done('deleteConnection'),
        failed('deleteConnection', NETWORK),
        { type: DELAY },
        done('refreshConnections', [SYNCED]),
        failed('refreshConnections', NETWORK),
      ],
      serialize: (s) => ({
        n: s.context.connections.length,
        status: s.context.connections[0]?.status ?? null,
        watching: Object.keys(s.context.watching).length > 0,
        error: s.context.error?.code ?? null,
      }),
    },
  ],
  start: (plan) => startMachine(calendarConnectionsMachine, { input: plan.input! }),
  states: {
    'calendarConnections.loading': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes!.loadConnections!.latest().input).toEqual({ coachId: 'k1' });
    },
    'calendarConnections.failed': (s) => {
      expect(s.hasTag('error')).toBe(true);
      expect(s.can({ type: 'list.retry' })).toBe(true);
    },
    'calendarConnections.ready.work.idle': (s) => {
      expect(s.hasTag('busy')).toBe(false);
      const has = s.context.connections.length > 0;
      // Without any connection the form is open and cannot be closed.
      if (!has) expect(s.context.formOpen).toBe(true);
      expect(s.can({ type: 'form.close' })).toBe(has && s.context.formOpen);
      expect(s.can({ type: 'connection.sync', connectionId: 'c1' })).toBe(has);
      expect(s.can({ type: 'connection.sync', connectionId: 'other' })).toBe(false);
    },
    'calendarConnections.ready.work.connecting': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.hasTag('connecting')).toBe(true);
      const call = run.fakes!.createConnection!.latest().input;
      expect(call.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(call.body).toEqual({
        serverUrl: 'https://cloud.example.de/remote.php/dav',
        username: 'anna',
        password: 'app-pass',
        allDayBlocks: true,
        shareClientFirstName: false,
      });
    },
    'calendarConnections.ready.work.saving': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes!.updateConnection!.latest().input).toMatchObject({
        coachId: 'k1',
        connectionId: 'c1',
      });
    },
    'calendarConnections.ready.work.syncing': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes!.syncConnection!.latest().input).toEqual({
        coachId: 'k1',
        connectionId: 'c1',
      });
    },
    'calendarConnections.ready.work.confirmingDisconnect': (s, run) => {
      expect(s.hasTag('confirmDisconnect')).toBe(true);
      expect(run.fakes!.deleteConnection!.pending()).toBe(0);
    },
    'calendarConnections.ready.work.disconnecting': (s, run) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(run.fakes!.deleteConnection!.latest().input).toEqual({
        coachId: 'k1',
        connectionId: 'c1',
      });
    },
    'calendarConnections.ready.watch.waiting': (s) => {
      expect(s.hasTag('watching')).toBe(true);
      expect(Object.keys(s.context.watching)).toEqual(['c1']);
    },
    'calendarConnections.ready.watch.refreshing': (s, run) => {
      expect(s.hasTag('watching')).toBe(true);
      expect(run.fakes!.loadConnections!.pending()).toBe(1);
    },
  },
});

const start = () => startMachine(calendarConnectionsMachine, { input: { coachId: 'k1' } });

async function connectFlow(run: ReturnType<typeof start>) {
  const { actor } = run;
  actor.send({ type: 'form.change', field: 'serverUrl', value: 'https://cloud.example.de/dav' });
  actor.send({ type: 'form.change', field: 'username', value: 'anna' });
  actor.send({ type: 'form.change', field: 'password', value: 'app-pass' });
  actor.send({ type: 'form.submit' });
  await flush();
}

describe('calendar connections machine, with fake actors', () => {
  it('names empty fields and a server address without http(s) before calling the server', async () => {
    const run = start();
    run.fakes.loadConnections!.resolve([]);
    await flush();
    run.actor.send({ type: 'form.change', field: 'serverUrl', value: 'cloud.example.de' });
    run.actor.send({ type: 'form.submit' });
    expect(run.actor.getSnapshot().context.fieldErrors).toEqual({
      serverUrl: 'invalid_server_url',
      username: 'value_missing',
      password: 'value_missing',
    });
    expect(run.fakes.createConnection!.calls).toHaveLength(0);
    // Typing into a field takes its error away.
    run.actor.send({ type: 'form.change', field: 'username', value: 'anna' });
    expect(run.actor.getSnapshot().context.fieldErrors.username).toBeUndefined();
  });

  it('shows the server refusals at their field and keeps the Idempotency-Key for the same request', async () => {
    const run = start();
    run.fakes.loadConnections!.resolve([]);
    await flush();
    await connectFlow(run);
    const first = run.fakes.createConnection!.latest().input.idempotencyKey;
    run.fakes.createConnection!.reject(REFUSED);
    await flush();
    expect(run.actor.getSnapshot().context.fieldErrors).toEqual({
      serverUrl: 'calendar_server_refused',
    });
    // The same request again (a lost answer, a second click): the same key, one connection.
    run.actor.send({ type: 'form.submit' });
    await flush();
    expect(run.fakes.createConnection!.latest().input.idempotencyKey).toBe(first);
    run.fakes.createConnection!.reject(UNAUTHORIZED);
    await flush();
    expect(run.actor.getSnapshot().context.fieldErrors).toEqual({
      password: 'calendar_unauthorized',
    });
    // Another password is another request: a new key.
    run.actor.send({ type: 'form.change', field: 'password', value: 'new-app-pass' });
    run.actor.send({ type: 'form.submit' });
    await flush();
    const third = run.fakes.createConnection!.latest().input.idempotencyKey;
    expect(third).not.toBe(first);
    run.fakes.createConnection!.resolve(CONN);
    await flush();
    const ctx = run.actor.getSnapshot().context;
    expect(ctx.connections.map((c) => c.id)).toEqual(['c1']);
    expect(ctx.formOpen).toBe(false);
    // The password does not stay in the page's memory after connecting.
    expect(ctx.draft).toEqual({ serverUrl: '', username: '', password: '' });
    expect(ctx.writeKey).toBeNull();
  });

  it('sends the whole list of blocking calendars, and the receiving one (or none)', async () => {
    const run = start();
    run.fakes.loadConnections!.resolve([
      { ...CONN, calendars: [CONN.calendars[0]!, { ...CONN.calendars[1]!, blocks: true }] },
    ]);
    await flush();
    run.actor.send(BLOCK as never);
    await flush();
    expect(run.fakes.updateConnection!.latest().input.body).toEqual({
      blockingCalendarIds: ['cal1', 'cal2'],
    });
    run.fakes.updateConnection!.resolve(BLOCKING);
    await flush();
    run.actor.send({
      type: 'calendar.block',
      connectionId: 'c1',
      calendarId: 'cal1',
      blocks: false,
    });
    await flush();
    expect(run.fakes.updateConnection!.latest().input.body).toEqual({ blockingCalendarIds: [] });
    run.fakes.updateConnection!.resolve(CONN);
    await flush();
    run.actor.send({ type: 'calendar.receive', connectionId: 'c1', calendarId: null });
    await flush();
    expect(run.fakes.updateConnection!.latest().input.body).toEqual({ receivingCalendarId: null });
    run.fakes.updateConnection!.resolve(CONN);
    await flush();
    run.actor.send({
      type: 'setting.set',
      connectionId: 'c1',
      setting: { shareClientFirstName: true },
    });
    await flush();
    expect(run.fakes.updateConnection!.latest().input.body).toEqual({
      shareClientFirstName: true,
    });
  });

  it('reloads the state until the server has tried the connection, without undoing choices', async () => {
    const run = start();
    run.fakes.loadConnections!.resolve([CONN]);
    await flush();
    run.actor.send({ type: 'connection.sync', connectionId: 'c1' });
    await flush();
    run.fakes.syncConnection!.resolve(CONN);
    await flush();
    expect(run.actor.getSnapshot().hasTag('watching')).toBe(true);
    // Before the delay nothing is asked.
    run.clock.increment(POLL_MS - 1);
    await flush();
    expect(run.fakes.loadConnections!.calls).toHaveLength(1);
    // Meanwhile the coach chooses a blocking calendar; the reload must not undo it.
    run.actor.send(BLOCK as never);
    await flush();
    run.fakes.updateConnection!.resolve(BLOCKING);
    await flush();
    run.clock.increment(POLL_MS);
    await flush();
    expect(run.fakes.loadConnections!.calls).toHaveLength(2);
    run.fakes.loadConnections!.resolve([CONN]); // not tried yet, and an older choice
    await flush();
    expect(run.actor.getSnapshot().context.connections[0]!.calendars[0]!.blocks).toBe(true);
    expect(run.actor.getSnapshot().hasTag('watching')).toBe(true);
    run.clock.increment(POLL_MS);
    await flush();
    run.fakes.loadConnections!.resolve([SYNCED]);
    await flush();
    const snap = run.actor.getSnapshot();
    expect(snap.context.connections[0]).toMatchObject({
      status: 'ok',
      lastSyncedAt: SYNCED.lastSyncedAt,
      busyTimes: 3,
    });
    expect(snap.context.connections[0]!.calendars[0]!.blocks).toBe(true);
    expect(snap.hasTag('watching')).toBe(false);
    run.clock.increment(POLL_MS * 3);
    await flush();
    expect(run.fakes.loadConnections!.calls).toHaveLength(3);
  });

  it('stops reloading after a bounded number of tries when the sync never runs', async () => {
    const run = start();
    run.fakes.loadConnections!.resolve([CONN]);
    await flush();
    run.actor.send({ type: 'connection.sync', connectionId: 'c1' });
    await flush();
    run.fakes.syncConnection!.resolve(CONN);
    await flush();
    for (let i = 0; i < MAX_POLLS; i++) {
      run.clock.increment(POLL_MS);
      await flush();
      run.fakes.loadConnections!.resolve([CONN]);
      await flush();
    }
    expect(run.actor.getSnapshot().hasTag('watching')).toBe(false);
    run.clock.increment(POLL_MS * 5);
    await flush();
    expect(run.fakes.loadConnections!.calls).toHaveLength(1 + MAX_POLLS);
  });

  it('disconnects only after the question, then offers the form again', async () => {
    const run = start();
    run.fakes.loadConnections!.resolve([CONN]);
    await flush();
    expect(run.actor.getSnapshot().context.formOpen).toBe(false);
    run.actor.send({ type: 'connection.disconnect', connectionId: 'c1' });
    await flush();
    expect(run.actor.getSnapshot().hasTag('confirmDisconnect')).toBe(true);
    expect(run.fakes.deleteConnection!.calls).toHaveLength(0);
    run.actor.send({ type: 'disconnect.confirm' });
    await flush();
    run.fakes.deleteConnection!.resolve(undefined);
    await flush();
    const ctx = run.actor.getSnapshot().context;
    expect(ctx.connections).toEqual([]);
    expect(ctx.formOpen).toBe(true);
  });
});
