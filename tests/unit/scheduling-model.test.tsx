import { Temporal } from '@js-temporal/polyfill';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, expect, vi } from 'vitest';
import { fromCallback, type AnyActorRef, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { createI18n } from '../../src/i18n';
import { availabilityWeekMachine } from '../../src/machines/availability-week.machine';
import { calendarMachine, type CalendarQuery } from '../../src/machines/calendar.machine';
import type {
  CalendarEvent,
  CalendarWeek,
  CoachOption,
} from '../../src/machines/scheduling/shared';
import { AvailabilityWeekView } from '../../src/views/availability/AvailabilityWeekView';
import { CalendarView } from '../../src/views/calendar/CalendarView';
import { readLocales } from '../support/locales';
import { describeModel, done, failed, startMachine } from '../support/model';
import {
  apiError,
  appointment,
  appointmentEvent,
  availability,
  COACH_ID,
  holidayEvent,
  OTHER_COACH_ID,
  SERIES_ID,
} from './scheduling-fakes';

/**
 * Model-based tests (docs/style.md, "Testing machines"): the paths come from the real machines with
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

// ---------------------------------------------------------------------------------------------
// Availability week

type WeekSnapshot = SnapshotFrom<typeof availabilityWeekMachine>;

const WEEK_EVENTS: AnyEventObject[] = [
  done('loadCoaches', COACHES),
  done('loadCoaches', []),
  failed('loadCoaches', NETWORK),
  done('loadWeek', [availability()]),
  failed('loadWeek', NETWORK),
  done('saveAvailability', availability()),
  failed('saveAvailability', NETWORK),
  done('deleteAvailability', undefined),
  failed('deleteAvailability', apiError(404, 'not_found')),
  { type: 'retry' },
  { type: 'week.next' },
  { type: 'coach.select', coachId: OTHER_COACH_ID },
  { type: 'block.create', date: '2026-03-24' },
  { type: 'occurrence.select', availabilityId: SERIES_ID, occurrenceDate: '2026-03-25' },
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

function renderWeek() {
  const started = startMachine(availabilityWeekMachine, {
    input: { canPickCoach: true, ownCoachId: null, today: TODAY },
  });
  const view = render(
    <I18nextProvider i18n={i18n}>
      <AvailabilityWeekView actorRef={started.actor} browserZone="Europe/Berlin" />
    </I18nextProvider>,
  );
  return { ...started, view, user: userEvent.setup() };
}

const grid = (container: HTMLElement) => container.querySelector('.week-grid');
const button = (name: string | RegExp) => screen.getByRole('button', { name });
type UserRun = { user: ReturnType<typeof userEvent.setup> };
const click = (name: string | RegExp) => (_: unknown, r: UserRun) => r.user.click(button(name));

describeModel('availability week, model-based', {
  machine: availabilityWeekMachine,
  plans: [
    {
      input: { canPickCoach: true, ownCoachId: null, today: TODAY },
      events: WEEK_EVENTS,
      // Context that changes what is shown, kept finite.
      serialize: (s: WeekSnapshot) => {
        const c = s.context;
        return {
          coach: c.coachId,
          // This week or a later one (week.next forever would make the graph endless).
          week: c.weekStart.dayOfWeek === 1 && c.weekStart.until(TODAY).days < 7 ? 'this' : 'later',
          selected: c.selection !== null,
          draft: c.draft?.mode ?? null,
          scope: c.deleteScope,
          error: c.error?.code ?? null,
        };
      },
    },
  ],
  start: renderWeek,
  wrap: (step) => act(step),
  events: {
    retry: click('Erneut versuchen'),
    'week.next': click('Nächste Woche'),
    'coach.select': (_, r) =>
      r.user.selectOptions(screen.getByRole('combobox', { name: 'Coach' }), OTHER_COACH_ID),
    'block.create': click('Block hinzufügen am Dienstag, 24.03.2026'),
    'occurrence.select': (_, r) =>
      r.user.click(
        within(screen.getByRole('region', { name: /25\.3\./ })).getByRole('button', {
          name: /09:00–12:00/,
        }),
      ),
    'selection.clear': click('Schließen'),
    'edit.series': click('Serie bearbeiten'),
    'edit.occurrence': click('Nur diesen Termin bearbeiten'),
    'delete.series': click('Serie löschen'),
    'delete.occurrence': click('Nur diesen Termin löschen'),
    'delete.confirm': click('Ja, löschen'),
    'delete.cancel': click('Abbrechen'),
    'form.submit': click('Speichern'),
    'form.cancel': click('Abbrechen'),
  },
  states: {
    '#availabilityWeek.loadingCoaches': (_, r) => {
      expect(r.view.container.querySelector('.page-loading[aria-busy="true"]')).not.toBeNull();
      expect(grid(r.view.container)).toBeNull();
    },
    '#availabilityWeek.coachesFailed': () => {
      expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung zum Server');
      button('Erneut versuchen');
    },
    '#availabilityWeek.noCoach': (_, r) => {
      screen.getByText('Es gibt noch keine aktiven Coaches. Legen Sie zuerst einen Coach an.');
      expect(grid(r.view.container)).toBeNull();
    },
    '#availabilityWeek.loading': (_, r) => {
      expect(grid(r.view.container)!.getAttribute('aria-busy')).toBe('true');
      expect((button('Nächste Woche') as HTMLButtonElement).disabled).toBe(true);
    },
    '#availabilityWeek.failed': () => {
      expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung zum Server');
    },
    '#availabilityWeek.ready': (_, r) => {
      const c = r.view.container;
      expect(grid(c)!.getAttribute('aria-busy')).not.toBe('true');
      expect(screen.getAllByRole('region')).toHaveLength(
        7 + c.querySelectorAll('.detail-panel').length,
      );
    },
    '#availabilityWeek.ready.idle': (_, r) => {
      expect(r.view.container.querySelector('.detail-panel')).toBeNull();
      expect((button('Block hinzufügen am Montag, 23.03.2026') as HTMLButtonElement).disabled).toBe(
        false,
      );
    },
    '#availabilityWeek.ready.selected': () => {
      screen.getByRole('heading', { name: 'Ausgewählter Block' });
      button('Serie bearbeiten');
      expect(screen.queryByRole('alertdialog')).toBeNull();
    },
    '#availabilityWeek.ready.editing': () => {
      screen.getByRole('heading', {
        name: /Neuer Block|Block bearbeiten|Diesen Termin der Serie ändern/,
      });
      expect(button('Speichern').getAttribute('aria-busy')).toBe('false');
    },
    '#availabilityWeek.ready.saving': () => {
      expect(button('Wird gespeichert …').getAttribute('aria-busy')).toBe('true');
    },
    '#availabilityWeek.ready.confirmingDelete': () => {
      const dialog = screen.getByRole('alertdialog');
      expect(dialog.textContent).toMatch(
        /Möchten Sie (diesen Block mit allen Wiederholungen|nur diesen einen Termin)/,
      );
      expect(
        (within(dialog).getByRole('button', { name: 'Ja, löschen' }) as HTMLButtonElement).disabled,
      ).toBe(false);
    },
    '#availabilityWeek.ready.deleting': () => {
      expect((button('Ja, löschen') as HTMLButtonElement).disabled).toBe(true);
    },
  },
  finish: (r) => r.view.unmount(),
});

// ---------------------------------------------------------------------------------------------
// Calendar

// The time grid renders some hundred cells per step in jsdom; long paths take seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

type CalendarSnapshot = SnapshotFrom<typeof calendarMachine>;

const EVENTS: CalendarEvent[] = [
  holidayEvent('2026-04-03', 'Karfreitag', '2026-04-02T22:00:00.000Z', '2026-04-03T22:00:00.000Z'),
  appointmentEvent(),
];

const CALENDAR_EVENTS: AnyEventObject[] = [
  done('loadCoaches', COACHES),
  failed('loadCoaches', NETWORK),
  done('loadEvents', { events: EVENTS, privateBusy: [], privateCalendars: [] }),
  failed('loadEvents', NETWORK),
  done('loadAppointment', appointment()),
  failed('loadAppointment', apiError(404, 'not_found')),
  done('cancelAppointment', appointment({ cancelledAt: '2026-03-20T10:00:00.000Z' })),
  failed('cancelAppointment', apiError(409, 'appointment_cancelled')),
  { type: 'retry' },
  { type: 'period.next' },
  { type: 'coach.select', coachId: OTHER_COACH_ID },
  { type: 'appointment.open', appointmentId: appointmentEvent().appointmentId },
  { type: 'detail.close' },
  { type: 'cancel.request' },
  { type: 'cancel.confirm' },
  { type: 'cancel.abort' },
  { type: 'mode.select', mode: 'day' },
  { type: 'viewport.change', narrow: true },
];

/**
 * The model's answer, with the appointment moved into the week asked for (Wednesday 10:00), a
 * private busy time of its coach overlapping it (10:30–11:30) and that coach's failing
 * calendar connection.
 */
function eventsForWeek(query: CalendarQuery): CalendarWeek {
  const weeks = Math.round(
    Temporal.Instant.from(query.startDate)
      .since(Temporal.Instant.from('2026-03-22T23:00:00Z'))
      .total({ unit: 'hours' }) /
      (24 * 7),
  );
  const shift = (iso: string) =>
    Temporal.Instant.from(iso)
      .toZonedDateTimeISO('Europe/Berlin')
      .add({ weeks })
      .toInstant()
      .toString();
  const a = appointmentEvent();
  const busyStart = Temporal.Instant.from(a.startDate).add({ minutes: 30 }).toString();
  const busyEnd = Temporal.Instant.from(a.startDate).add({ minutes: 90 }).toString();
  return {
    events: [
      EVENTS[0]!,
      {
        ...a,
        startDate: shift(a.startDate),
        endDate: shift(a.endDate),
        privateConflict: true,
      },
    ],
    privateBusy: [
      { coachId: a.coachId!, startDate: shift(busyStart), endDate: shift(busyEnd), allDay: false },
    ],
    privateCalendars: [
      { coachId: a.coachId!, failing: true, lastSyncedAt: '2026-03-20T08:00:00.000Z' },
    ],
  };
}

function renderCalendar() {
  const viewport: { send?: (event: AnyEventObject) => void } = {};
  const started = startMachine(calendarMachine, {
    input: { canPickCoach: true, today: TODAY, narrow: false },
    actors: {
      watchViewport: fromCallback<AnyEventObject>(({ sendBack }) => {
        viewport.send = sendBack;
      }),
    },
  });
  const view = render(
    <I18nextProvider i18n={i18n}>
      <CalendarView
        actorRef={started.actor as AnyActorRef as never}
        browserZone="America/New_York"
      />
    </I18nextProvider>,
  );
  return { ...started, view, viewport, user: userEvent.setup() };
}

describeModel('calendar, model-based', {
  machine: calendarMachine,
  plans: [
    {
      input: { canPickCoach: true, today: TODAY, narrow: false },
      events: CALENDAR_EVENTS,
      serialize: (s: CalendarSnapshot) => ({
        mode: s.context.mode,
        narrow: s.context.narrow,
        anchor: s.context.anchor.equals(TODAY) ? 'today' : 'later',
        coach: s.context.coachId,
        error: s.context.error?.code ?? null,
      }),
    },
  ],
  start: renderCalendar,
  wrap: (step) => act(step),
  events: {
    'xstate.done.actor.loadEvents': (_, r) =>
      r.fakes.loadEvents!.resolve(eventsForWeek(r.fakes.loadEvents!.calls.at(-1))),
    retry: click('Erneut versuchen'),
    'period.next': click(/Nächste Woche|Nächster Tag/),
    'coach.select': (_, r) =>
      r.user.selectOptions(screen.getByRole('combobox', { name: 'Coach' }), OTHER_COACH_ID),
    'appointment.open': click(/Erika Mustermann/),
    'detail.close': click('Schließen'),
    'cancel.request': click('Termin absagen'),
    'cancel.confirm': click('Ja, absagen'),
    'cancel.abort': click('Nein, Termin behalten'),
    'mode.select': click('Tag'),
    'viewport.change': (event, r) => r.viewport.send!(event),
  },
  states: {
    '#calendar': (snapshot, r) => {
      // The browser is in New York: every state carries the zone note.
      expect(screen.getByRole('note').textContent).toContain('America/New_York');
      // A week has 7 day columns; the wide day view of every coach one column per coach.
      const { mode, narrow, coachId, coaches } = snapshot.context;
      const columns =
        mode === 'week'
          ? 7
          : !narrow && coachId === null && coaches.length > 0
            ? coaches.length
            : 1;
      expect(r.view.container.querySelectorAll('.rbc-time-content .rbc-day-slot')).toHaveLength(
        columns,
      );
    },
    '#calendar.loadingCoaches': (_, r) => {
      expect(
        r.view.container.querySelector('.calendar-grid-frame')!.getAttribute('aria-busy'),
      ).toBe('true');
    },
    '#calendar.loading': (_, r) => {
      expect(
        r.view.container.querySelector('.calendar-grid-frame')!.getAttribute('aria-busy'),
      ).toBe('true');
      expect((button(/Nächste Woche|Nächster Tag/) as HTMLButtonElement).disabled).toBe(true);
    },
    '#calendar.failed': () => {
      expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung zum Server');
    },
    '#calendar.ready': (snapshot, r) => {
      expect(
        r.view.container.querySelector('.calendar-grid-frame')!.getAttribute('aria-busy'),
      ).toBe('false');
      // The week of 23 March shows the appointment on Wednesday (10:00 CET).
      // The coach's failing private calendar: how old its copy is.
      expect(r.view.container.querySelector('.calendar-private-copy')?.textContent).toMatch(
        /Privatkalender( von .+)? zuletzt abgeglichen vor \d+/,
      );
      if (snapshot.context.anchor.toString() === '2026-03-25') {
        const entry = screen.getByRole('button', {
          name: /10:00–10:50 Erika Mustermann · Folgetermin · Überschneidung mit privatem Termin/,
        });
        // The private busy time: no title, nothing but "Privat belegt".
        const busy = r.view.container.querySelector('.rbc-event.grid-private')!;
        expect(busy.textContent).toMatch(/^(10:30–11:30)+ ?Privat belegt( · Clara Coach)?$/);
        // Placed by its time in the 07:00–20:00 grid: 3 of 13 hours from the top.
        expect(parseFloat(entry.style.top)).toBeCloseTo((3 / 13) * 100, 1);
      }
      // Good Friday is in the next week.
      if (snapshot.context.mode === 'week' && snapshot.context.anchor.toString() === '2026-04-01') {
        screen.getByText('Feiertag: Karfreitag');
      }
    },
    '#calendar.ready.idle': (_, r) => {
      expect(r.view.container.querySelector('.appointment-detail')).toBeNull();
    },
    '#calendar.ready.detail.loadingDetail': (_, r) => {
      expect(r.view.container.querySelector('.appointment-detail .page-loading')).not.toBeNull();
    },
    '#calendar.ready.detail.detailFailed': () => {
      expect(screen.getByRole('alert').textContent).toContain('nicht gefunden');
    },
    '#calendar.ready.detail.showing': () => {
      const panel = screen.getByRole('dialog', { name: 'Termin' });
      expect(panel.textContent).toContain('Erika Mustermann');
      expect(panel.textContent).toContain('abcd-efgh-jkmn');
      expect(panel.textContent).toContain('pqrs-tvwx-yz12');
      expect(panel.textContent).toContain('Mittwoch, 25.03.2026, 10:00–10:50');
      expect(panel.textContent).toContain('Überschneidung mit privatem Termin');
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
  finish: (r) => r.view.unmount(),
});
