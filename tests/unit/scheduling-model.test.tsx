import { Temporal } from '@js-temporal/polyfill';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createActor,
  fromCallback,
  type AnyActorRef,
  type AnyStateMachine,
  type EventObject,
  type SnapshotFrom,
} from 'xstate';
import { getStateNodes, TestModel, type StatePath } from 'xstate/graph';
import { createI18n } from '../../src/i18n';
import {
  availabilityWeekMachine,
  type DeleteAvailabilityInput,
  type LoadWeekInput,
  type SaveAvailabilityInput,
} from '../../src/machines/availability-week.machine';
import { calendarMachine, type CalendarQuery } from '../../src/machines/calendar.machine';
import type { Appointment, Availability, CalendarEvent, CoachOption } from '../../src/machines/scheduling/shared';
import { AvailabilityWeekView } from '../../src/views/availability/AvailabilityWeekView';
import { CalendarView } from '../../src/views/calendar/CalendarView';
import { readLocales } from '../support/locales';
import {
  apiError,
  appointment,
  appointmentEvent,
  availability,
  COACH_ID,
  controlled,
  flush,
  holidayEvent,
  OTHER_COACH_ID,
  SERIES_ID,
} from './scheduling-fakes';

/**
 * Model-based tests (style.md, "Testing machines"): the paths come from the real machines with
 * xstate/graph; each path is played against the rendered view, UI events by a user clicking and
 * invoke results by settling the fake API calls, and every state on the way is checked in what
 * the person sees.
 */

const TODAY = Temporal.PlainDate.from('2026-03-25');
const COACHES: CoachOption[] = [
  { id: COACH_ID, name: 'Clara Coach' },
  { id: OTHER_COACH_ID, name: 'Otto Coach' },
];
const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });

let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

/** Every state node id of a machine, except the transient ones a snapshot never rests in. */
function restingStateIds(machine: AnyStateMachine, transient: string[]): string[] {
  return getStateNodes(machine)
    .map((n) => n.id)
    .filter((id) => !transient.includes(id));
}

function reachedStateIds(paths: Array<StatePath<any, any>>): Set<string> {
  const reached = new Set<string>();
  for (const path of paths) {
    for (const snapshot of [path.state, ...path.steps.map((s) => s.state)]) {
      for (const node of (snapshot as { _nodes: Array<{ id: string }> })._nodes) reached.add(node.id);
    }
  }
  return reached;
}

const summary: Array<Record<string, unknown>> = [];
afterAll(() => {
  for (const line of summary) console.log(JSON.stringify(line));
});

const stateMatcher = (machine: AnyStateMachine) => (state: { _nodes: unknown[] }, key: string) =>
  state._nodes.includes(machine.getStateNodeById(key));

const describePath = (path: StatePath<any, EventObject>) =>
  path.steps.map((s) => s.event.type.replace('xstate.', '')).join(' → ') || '(start)';

// ---------------------------------------------------------------------------------------------
// Availability week

type WeekSnapshot = SnapshotFrom<typeof availabilityWeekMachine>;

const WEEK_EVENTS: EventObject[] = [
  { type: 'xstate.done.actor.loadCoaches', output: COACHES } as EventObject,
  { type: 'xstate.done.actor.loadCoaches', output: [] } as EventObject,
  { type: 'xstate.error.actor.loadCoaches', error: NETWORK } as EventObject,
  { type: 'xstate.done.actor.loadWeek', output: [availability()] } as EventObject,
  { type: 'xstate.error.actor.loadWeek', error: NETWORK } as EventObject,
  { type: 'xstate.done.actor.saveAvailability', output: availability() } as EventObject,
  { type: 'xstate.error.actor.saveAvailability', error: NETWORK } as EventObject,
  { type: 'xstate.done.actor.deleteAvailability', output: undefined } as EventObject,
  { type: 'xstate.error.actor.deleteAvailability', error: apiError(404, 'not_found') } as EventObject,
  { type: 'retry' },
  { type: 'week.next' },
  { type: 'coach.select', coachId: OTHER_COACH_ID } as EventObject,
  { type: 'block.create', date: '2026-03-24' } as EventObject,
  { type: 'occurrence.select', availabilityId: SERIES_ID, occurrenceDate: '2026-03-25' } as EventObject,
  { type: 'selection.clear' },
  { type: 'edit.series' },
  { type: 'edit.occurrence' },
  { type: 'delete.series' },
  { type: 'delete.occurrence' },
  { type: 'delete.confirm' },
  { type: 'delete.cancel' },
  { type: 'form.submit' },
  { type: 'form.cancel' },
];

const weekModel: TestModel<any, any, any> = new TestModel(availabilityWeekMachine as any, {
  input: { role: 'ADMIN', ownCoachId: null, today: TODAY },
  events: WEEK_EVENTS as never,
  stateMatcher: stateMatcher(availabilityWeekMachine) as never,
  limit: 2000,
  // Context that changes what is shown, kept finite.
  serializeState: (s) => {
    const c = (s as WeekSnapshot).context;
    return JSON.stringify({
      value: (s as WeekSnapshot).value,
      coach: c.coachId,
      // This week or a later one (week.next forever would make the graph endless).
      week: c.weekStart.dayOfWeek === 1 && c.weekStart.until(TODAY).days < 7 ? 'this' : 'later',
      selected: c.selection !== null,
      draft: c.draft?.mode ?? null,
      scope: c.deleteScope,
      error: c.error?.code ?? null,
    });
  },
});

function renderWeek() {
  const fakes = {
    loadCoaches: controlled<any, CoachOption[]>(),
    loadWeek: controlled<LoadWeekInput, Availability[]>(),
    saveAvailability: controlled<SaveAvailabilityInput, Availability>(),
    deleteAvailability: controlled<DeleteAvailabilityInput, void>(),
  };
  const actor = createActor(
    availabilityWeekMachine.provide({
      actors: {
        loadCoaches: fakes.loadCoaches.logic,
        loadWeek: fakes.loadWeek.logic,
        saveAvailability: fakes.saveAvailability.logic,
        deleteAvailability: fakes.deleteAvailability.logic,
      },
    }),
    { input: { role: 'ADMIN', ownCoachId: null, today: TODAY } },
  ).start();
  const view = render(
    <I18nextProvider i18n={i18n}>
      <AvailabilityWeekView actorRef={actor} browserZone="Europe/Berlin" />
    </I18nextProvider>,
  );
  return { actor, fakes, view, user: userEvent.setup() };
}

const settle = async (fn: () => void) => {
  await act(async () => {
    fn();
    await flush();
  });
};

const grid = (container: HTMLElement) => container.querySelector('.week-grid');

describe('availability week, model-based', () => {
  const paths = weekModel.getShortestPaths();

  it('reaches every state of the machine', () => {
    const expected = restingStateIds(availabilityWeekMachine, ['availabilityWeek.starting']);
    const reached = reachedStateIds(paths);
    expect(expected.filter((id) => !reached.has(id))).toEqual([]);
    summary.push({ machine: 'availabilityWeek', states: expected.length, paths: paths.length });
  });

  it.each(paths.map((p) => [describePath(p), p] as const))('%s', async (_name, path) => {
    const { fakes, view, user } = renderWeek();
    const c = view.container;
    const button = (name: string | RegExp) => screen.getByRole('button', { name });
    await weekModel.testPath(path, {
      events: {
        'xstate.done.actor.loadCoaches': ({ event }: { event: any }) => settle(() => fakes.loadCoaches.resolve(event.output)),
        'xstate.error.actor.loadCoaches': ({ event }: { event: any }) => settle(() => fakes.loadCoaches.reject(event.error)),
        'xstate.done.actor.loadWeek': ({ event }: { event: any }) => settle(() => fakes.loadWeek.resolve(event.output)),
        'xstate.error.actor.loadWeek': ({ event }: { event: any }) => settle(() => fakes.loadWeek.reject(event.error)),
        'xstate.done.actor.saveAvailability': ({ event }: { event: any }) =>
          settle(() => fakes.saveAvailability.resolve(event.output)),
        'xstate.error.actor.saveAvailability': ({ event }: { event: any }) =>
          settle(() => fakes.saveAvailability.reject(event.error)),
        'xstate.done.actor.deleteAvailability': () => settle(() => fakes.deleteAvailability.resolve()),
        'xstate.error.actor.deleteAvailability': ({ event }: { event: any }) =>
          settle(() => fakes.deleteAvailability.reject(event.error)),
        retry: () => user.click(button('Erneut versuchen')),
        'week.next': () => user.click(button('Nächste Woche')),
        'coach.select': () => user.selectOptions(screen.getByRole('combobox', { name: 'Coach' }), OTHER_COACH_ID),
        'block.create': () => user.click(button('Block hinzufügen am Dienstag, 24.03.2026')),
        'occurrence.select': () =>
          user.click(within(screen.getByRole('region', { name: /25\.3\./ })).getByRole('button', { name: /09:00–12:00/ })),
        'selection.clear': () => user.click(button('Schließen')),
        'edit.series': () => user.click(button('Serie bearbeiten')),
        'edit.occurrence': () => user.click(button('Nur diesen Termin bearbeiten')),
        'delete.series': () => user.click(button('Serie löschen')),
        'delete.occurrence': () => user.click(button('Nur diesen Termin löschen')),
        'delete.confirm': () => user.click(button('Ja, löschen')),
        'delete.cancel': () => user.click(button('Abbrechen')),
        'form.submit': () => user.click(button('Speichern')),
        'form.cancel': () => user.click(button('Abbrechen')),
      },
      states: {
        '#availabilityWeek.loadingCoaches': () => {
          expect(c.querySelector('.page-loading[aria-busy="true"]')).not.toBeNull();
          expect(grid(c)).toBeNull();
        },
        '#availabilityWeek.coachesFailed': () => {
          expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung zum Server');
          button('Erneut versuchen');
        },
        '#availabilityWeek.noCoach': () => {
          screen.getByText('Es gibt noch keine aktiven Coaches. Legen Sie zuerst einen Coach an.');
          expect(grid(c)).toBeNull();
        },
        '#availabilityWeek.loading': () => {
          expect(grid(c)!.getAttribute('aria-busy')).toBe('true');
          expect((button('Nächste Woche') as HTMLButtonElement).disabled).toBe(true);
        },
        '#availabilityWeek.failed': () => {
          expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung zum Server');
        },
        '#availabilityWeek.ready': () => {
          expect(grid(c)!.getAttribute('aria-busy')).not.toBe('true');
          expect(screen.getAllByRole('region')).toHaveLength(7 + c.querySelectorAll('.detail-panel').length);
        },
        '#availabilityWeek.ready.idle': () => {
          expect(c.querySelector('.detail-panel')).toBeNull();
          expect((button('Block hinzufügen am Montag, 23.03.2026') as HTMLButtonElement).disabled).toBe(false);
        },
        '#availabilityWeek.ready.selected': () => {
          screen.getByRole('heading', { name: 'Ausgewählter Block' });
          button('Serie bearbeiten');
          expect(screen.queryByRole('alertdialog')).toBeNull();
        },
        '#availabilityWeek.ready.editing': () => {
          screen.getByRole('heading', { name: /Neuer Block|Block bearbeiten|Diesen Termin der Serie ändern/ });
          expect(button('Speichern').getAttribute('aria-busy')).toBe('false');
        },
        '#availabilityWeek.ready.saving': () => {
          expect(button('Wird gespeichert …').getAttribute('aria-busy')).toBe('true');
        },
        '#availabilityWeek.ready.confirmingDelete': () => {
          const dialog = screen.getByRole('alertdialog');
          expect(dialog.textContent).toMatch(/Möchten Sie (diesen Block mit allen Wiederholungen|nur diesen einen Termin)/);
          expect((within(dialog).getByRole('button', { name: 'Ja, löschen' }) as HTMLButtonElement).disabled).toBe(false);
        },
        '#availabilityWeek.ready.deleting': () => {
          expect((button('Ja, löschen') as HTMLButtonElement).disabled).toBe(true);
        },
      },
    });
    view.unmount();
  });
});

// ---------------------------------------------------------------------------------------------
// Calendar

type CalendarSnapshot = SnapshotFrom<typeof calendarMachine>;

const EVENTS: CalendarEvent[] = [
  holidayEvent('2026-04-03', 'Karfreitag', '2026-04-02T22:00:00.000Z', '2026-04-03T22:00:00.000Z'),
  appointmentEvent(),
];

const CALENDAR_EVENTS: EventObject[] = [
  { type: 'xstate.done.actor.loadCoaches', output: COACHES } as EventObject,
  { type: 'xstate.error.actor.loadCoaches', error: NETWORK } as EventObject,
  { type: 'xstate.done.actor.loadEvents', output: EVENTS } as EventObject,
  { type: 'xstate.error.actor.loadEvents', error: NETWORK } as EventObject,
  { type: 'xstate.done.actor.loadAppointment', output: appointment() } as EventObject,
  { type: 'xstate.error.actor.loadAppointment', error: apiError(404, 'not_found') } as EventObject,
  { type: 'xstate.done.actor.cancelAppointment', output: appointment({ cancelledAt: '2026-03-20T10:00:00.000Z' }) } as EventObject,
  { type: 'xstate.error.actor.cancelAppointment', error: apiError(409, 'appointment_cancelled') } as EventObject,
  { type: 'retry' },
  { type: 'period.next' },
  { type: 'coach.select', coachId: OTHER_COACH_ID } as EventObject,
  { type: 'appointment.open', appointmentId: appointmentEvent().appointmentId } as EventObject,
  { type: 'detail.close' },
  { type: 'cancel.request' },
  { type: 'cancel.confirm' },
  { type: 'cancel.abort' },
  { type: 'viewport.change', narrow: true } as EventObject,
];

const calendarModel: TestModel<any, any, any> = new TestModel(calendarMachine as any, {
  input: { role: 'ADMIN', today: TODAY, narrow: false },
  events: CALENDAR_EVENTS as never,
  stateMatcher: stateMatcher(calendarMachine) as never,
  limit: 2000,
  serializeState: (s) => {
    const c = (s as CalendarSnapshot).context;
    return JSON.stringify({
      value: (s as CalendarSnapshot).value,
      mode: c.mode,
      anchor: c.anchor.equals(TODAY) ? 'today' : 'later',
      coach: c.coachId,
      error: c.error?.code ?? null,
    });
  },
});

/** The model's events, with the appointment moved into the week asked for (Wednesday 10:00). */
function eventsForWeek(query: CalendarQuery): CalendarEvent[] {
  const weeks = Math.round(
    Temporal.Instant.from(query.startDate).since(Temporal.Instant.from('2026-03-22T23:00:00Z')).total({ unit: 'hours' }) / (24 * 7),
  );
  const shift = (iso: string) =>
    Temporal.Instant.from(iso).toZonedDateTimeISO('Europe/Berlin').add({ weeks }).toInstant().toString();
  const a = appointmentEvent();
  return [EVENTS[0]!, { ...a, startDate: shift(a.startDate), endDate: shift(a.endDate) }];
}

function renderCalendar() {
  const fakes = {
    loadCoaches: controlled<any, CoachOption[]>(),
    loadEvents: controlled<CalendarQuery, CalendarEvent[]>(),
    loadAppointment: controlled<{ id: string }, Appointment>(),
    cancelAppointment: controlled<{ id: string }, Appointment>(),
  };
  const viewport: { send?: (event: EventObject) => void } = {};
  const actor = createActor(
    calendarMachine.provide({
      actors: {
        loadCoaches: fakes.loadCoaches.logic,
        loadEvents: fakes.loadEvents.logic,
        loadAppointment: fakes.loadAppointment.logic,
        cancelAppointment: fakes.cancelAppointment.logic,
        watchViewport: fromCallback<EventObject>(({ sendBack }) => {
          viewport.send = sendBack;
        }),
      },
    }),
    { input: { role: 'ADMIN', today: TODAY, narrow: false } },
  ).start();
  const view = render(
    <I18nextProvider i18n={i18n}>
      <CalendarView actorRef={actor as AnyActorRef as never} browserZone="America/New_York" />
    </I18nextProvider>,
  );
  return { actor, fakes, view, viewport, user: userEvent.setup() };
}

describe('calendar, model-based', () => {
  const paths = calendarModel.getShortestPaths();

  it('reaches every state of the machine', () => {
    const expected = restingStateIds(calendarMachine, ['calendar.starting']);
    const reached = reachedStateIds(paths);
    expect(expected.filter((id) => !reached.has(id))).toEqual([]);
    summary.push({ machine: 'calendar', states: expected.length, paths: paths.length });
  });

  it.each(paths.map((p) => [describePath(p), p] as const))('%s', async (_name, path) => {
    const { fakes, view, viewport, user } = renderCalendar();
    const c = view.container;
    const button = (name: string | RegExp) => screen.getByRole('button', { name });
    await calendarModel.testPath(path, {
      events: {
        'xstate.done.actor.loadCoaches': ({ event }: { event: any }) => settle(() => fakes.loadCoaches.resolve(event.output)),
        'xstate.error.actor.loadCoaches': ({ event }: { event: any }) => settle(() => fakes.loadCoaches.reject(event.error)),
        'xstate.done.actor.loadEvents': () =>
          settle(() => fakes.loadEvents.resolve(eventsForWeek(fakes.loadEvents.calls.at(-1)!))),
        'xstate.error.actor.loadEvents': ({ event }: { event: any }) => settle(() => fakes.loadEvents.reject(event.error)),
        'xstate.done.actor.loadAppointment': ({ event }: { event: any }) =>
          settle(() => fakes.loadAppointment.resolve(event.output)),
        'xstate.error.actor.loadAppointment': ({ event }: { event: any }) =>
          settle(() => fakes.loadAppointment.reject(event.error)),
        'xstate.done.actor.cancelAppointment': ({ event }: { event: any }) =>
          settle(() => fakes.cancelAppointment.resolve(event.output)),
        'xstate.error.actor.cancelAppointment': ({ event }: { event: any }) =>
          settle(() => fakes.cancelAppointment.reject(event.error)),
        retry: () => user.click(button('Erneut versuchen')),
        'period.next': () => user.click(button(/Nächste Woche|Nächster Tag/)),
        'coach.select': () => user.selectOptions(screen.getByRole('combobox', { name: 'Coach' }), OTHER_COACH_ID),
        'appointment.open': () => user.click(button(/Erika Mustermann/)),
        'detail.close': () => user.click(button('Schließen')),
        'cancel.request': () => user.click(button('Termin absagen')),
        'cancel.confirm': () => user.click(button('Ja, absagen')),
        'cancel.abort': () => user.click(button('Nein, Termin behalten')),
        'viewport.change': ({ event }: { event: any }) => settle(() => viewport.send!(event)),
      },
      states: {
        '#calendar': (s) => {
          // The browser is in New York: every state carries the zone note.
          expect(screen.getByRole('note').textContent).toContain('America/New_York');
          const snapshot = s as CalendarSnapshot;
          expect(c.querySelectorAll('.day-column')).toHaveLength(snapshot.context.mode === 'day' ? 1 : 7);
        },
        '#calendar.loadingCoaches': () => {
          expect(c.querySelector('.week-grid')!.getAttribute('aria-busy')).toBe('true');
        },
        '#calendar.loading': () => {
          expect(c.querySelector('.week-grid')!.getAttribute('aria-busy')).toBe('true');
          expect((button(/Nächste Woche|Nächster Tag/) as HTMLButtonElement).disabled).toBe(true);
        },
        '#calendar.failed': () => {
          expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung zum Server');
        },
        '#calendar.ready': (s) => {
          const snapshot = s as CalendarSnapshot;
          expect(c.querySelector('.week-grid')!.getAttribute('aria-busy')).toBe('false');
          // The week of 23 March shows the appointment on Wednesday (10:00 CET).
          if (snapshot.context.anchor.toString() === '2026-03-25') {
            screen.getByRole('button', { name: /10:00–10:50 Erika Mustermann · Folgetermin/ });
          }
          // Good Friday is in the next week.
          if (snapshot.context.mode === 'week' && snapshot.context.anchor.toString() === '2026-04-01') {
            screen.getByText('Feiertag: Karfreitag');
          }
        },
        '#calendar.ready.idle': () => {
          expect(c.querySelector('.appointment-detail')).toBeNull();
        },
        '#calendar.ready.detail.loadingDetail': () => {
          expect(c.querySelector('.appointment-detail .page-loading')).not.toBeNull();
        },
        '#calendar.ready.detail.detailFailed': () => {
          expect(screen.getByRole('alert').textContent).toContain('nicht gefunden');
        },
        '#calendar.ready.detail.showing': () => {
          const panel = screen.getByRole('region', { name: 'Termin' });
          expect(panel.textContent).toContain('Erika Mustermann');
          expect(panel.textContent).toContain('abcd-efgh-jkmn');
          expect(panel.textContent).toContain('pqrs-tvwx-yz12');
          expect(panel.textContent).toContain('Mittwoch, 25.03.2026, 10:00–10:50');
          expect(screen.queryByRole('alertdialog')).toBeNull();
        },
        '#calendar.ready.detail.confirmingCancel': () => {
          expect(screen.getByRole('alertdialog').textContent).toContain(
            'Möchten Sie den Termin mit Erika Mustermann wirklich absagen?',
          );
        },
        '#calendar.ready.detail.cancelling': () => {
          expect((button('Ja, absagen') as HTMLButtonElement).disabled).toBe(true);
        },
      },
    });
    view.unmount();
  });
});
