import { Temporal } from '@js-temporal/polyfill';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromCallback, type AnyActorRef, type AnyEventObject, type SnapshotFrom } from 'xstate';
import { createI18n } from '../../src/i18n';
import { initialCalendarMachine } from '../../src/machines/initial-calendar.machine';
import {
  dayAgenda,
  freeStretches,
  type InitialCalendar,
} from '../../src/machines/scheduling/initial-pool';
import { InitialCalendarView } from '../../src/views/calendar/InitialCalendarView';
import { readLocales } from '../support/locales';
import { describeModel, done, failed, startMachine } from '../support/model';
import {
  apiError,
  appointment,
  appointmentEvent,
  COACH_ID,
  holidayEvent,
  OTHER_COACH_ID,
  slot,
} from './scheduling-fakes';

/**
 * The initial-meetings calendar (onboarding managers, admins), model-based against its view:
 * free stretches and booked initial appointments by coach, a week or a day (a list per coach on
 * phones), holidays without slots, the coach filter, a booked one's detail in a dialog.
 */

const TODAY = Temporal.PlainDate.from('2026-03-25');
const NETWORK = Object.assign(new Error('offline'), { code: 'network_error' });

/** Wednesday 25.03.2026 (CET): Clara free 09:00–10:00 in two slots, booked 10:00; Otto 09:00. */
const WEEK: InitialCalendar = {
  coaches: [
    { id: COACH_ID, name: 'Clara Coach' },
    { id: OTHER_COACH_ID, name: 'Otto Coach' },
  ],
  slots: [
    slot('2026-03-25T08:00:00.000Z', '2026-03-25T08:30:00.000Z'),
    slot('2026-03-25T08:30:00.000Z', '2026-03-25T09:00:00.000Z'),
    slot('2026-03-25T08:00:00.000Z', '2026-03-25T08:30:00.000Z', OTHER_COACH_ID),
  ],
  events: [
    holidayEvent(
      '2026-03-26',
      'Testfeiertag',
      '2026-03-25T23:00:00.000Z',
      '2026-03-26T23:00:00.000Z',
    ),
    appointmentEvent({
      startDate: '2026-03-25T09:00:00.000Z',
      endDate: '2026-03-25T09:30:00.000Z',
      appointmentType: 'initial',
    }),
  ],
};

let i18n: Awaited<ReturnType<typeof createI18n>>['i18n'];
beforeAll(async () => {
  const setup = createI18n({ lng: 'de', resources: readLocales('de', 'en'), debug: false });
  await setup.ready;
  i18n = setup.i18n;
});

type Snapshot = SnapshotFrom<typeof initialCalendarMachine>;

const EVENTS: AnyEventObject[] = [
  done('loadCalendar', WEEK),
  failed('loadCalendar', NETWORK),
  done('loadAppointment', appointment({ appointmentType: 'initial' })),
  failed('loadAppointment', apiError(404, 'not_found')),
  { type: 'retry' },
  { type: 'period.next' },
  { type: 'coach.select', coachId: OTHER_COACH_ID },
  { type: 'detail.close' },
  { type: 'mode.select', mode: 'day' },
  { type: 'viewport.change', narrow: true },
];
const button = (name: string | RegExp) => screen.getByRole('button', { name });
type UserRun = { user: ReturnType<typeof userEvent.setup> };
const click = (name: string | RegExp) => (_: unknown, r: UserRun) => r.user.click(button(name));

function renderCalendar(narrow: boolean) {
  const viewport: { send?: (event: AnyEventObject) => void } = {};
  const started = startMachine(initialCalendarMachine, {
    input: { today: TODAY, narrow },
    actors: {
      watchViewport: fromCallback<AnyEventObject>(({ sendBack }) => {
        viewport.send = sendBack;
      }),
    },
  });
  const view = render(
    <I18nextProvider i18n={i18n}>
      <InitialCalendarView
        actorRef={started.actor as AnyActorRef as never}
        browserZone="Europe/Berlin"
      />
    </I18nextProvider>,
  );
  return { ...started, view, viewport, user: userEvent.setup() };
}

/** What the page shows of Wednesday's data, in the grid or in the phone's list. */
const visibleText = (r: ReturnType<typeof renderCalendar>) => r.view.container.textContent ?? '';

describeModel('initial-meetings calendar, model-based', {
  machine: initialCalendarMachine,
  plans: [
    {
      input: { today: TODAY, narrow: false },
      // A booked appointment opens where it shows: its week, every coach or its own.
      events: (s: Snapshot) => [
        ...EVENTS,
        ...(s.context.anchor.equals(TODAY) && s.context.coachId === null
          ? [{ type: 'appointment.open', appointmentId: appointmentEvent().appointmentId }]
          : []),
      ],
      serialize: (s: Snapshot) => ({
        mode: s.context.mode,
        narrow: s.context.narrow,
        anchor: s.context.anchor.equals(TODAY) ? 'today' : 'later',
        coach: s.context.coachId,
        error: s.context.error?.code ?? null,
      }),
    },
  ],
  maxPaths: 150,
  start: () => renderCalendar(false),
  wrap: (step) => act(step),
  events: {
    retry: click('Erneut versuchen'),
    'period.next': click(/Nächste Woche|Nächster Tag/),
    'coach.select': (_, r) =>
      r.user.selectOptions(screen.getByRole('combobox', { name: 'Coach' }), OTHER_COACH_ID),
    'appointment.open': (_, r) => r.user.click(button(/Erika Mustermann/)),
    'detail.close': click('Schließen'),
    'mode.select': click('Tag'),
    'viewport.change': (event, r) => r.viewport.send!(event),
  },
  states: {
    '#initialCalendar': () => {
      screen.getByRole('heading', { name: 'Erstgespräche', level: 1 });
    },
    '#initialCalendar.loading': () => {
      expect((button(/Nächste Woche|Nächster Tag/) as HTMLButtonElement).disabled).toBe(true);
    },
    '#initialCalendar.failed': () => {
      expect(screen.getByRole('alert').textContent).toContain('Keine Verbindung zum Server');
    },
    '#initialCalendar.ready': (snapshot, r) => {
      const { anchor, coachId, narrow, mode } = snapshot.context;
      const text = visibleText(r);
      if (!anchor.equals(TODAY)) return;
      // Clara's two slots read as one free stretch; Otto's stays his own.
      if (coachId === null) {
        expect(text).toContain('09:00–10:00');
        expect(text).toContain('Erika Mustermann');
      } else {
        expect(text).not.toContain('09:00–10:00');
        expect(text).not.toContain('Erika Mustermann');
        expect(text).toContain('09:00–09:30');
      }
      if (narrow) {
        // A phone shows the day as a list under each coach's name.
        const list = r.view.container.querySelector('.initial-agenda')!;
        expect(
          within(list as HTMLElement).getByRole('heading', { name: 'Otto Coach' }),
        ).toBeTruthy();
        expect(r.view.container.querySelector('.calendar-grid')).toBeNull();
      } else if (mode === 'day' && coachId === null) {
        // The wide day: a column per coach.
        expect(r.view.container.querySelectorAll('.rbc-time-content .rbc-day-slot')).toHaveLength(
          2,
        );
      }
    },
    '#initialCalendar.ready.idle': () => {
      expect(screen.queryByRole('dialog')).toBeNull();
    },
    '#initialCalendar.ready.detail.loadingDetail': (_, r) => {
      expect(r.view.container.querySelector('.appointment-detail .page-loading')).not.toBeNull();
    },
    '#initialCalendar.ready.detail.detailFailed': () => {
      expect(screen.getByRole('alert').textContent).toContain('nicht gefunden');
    },
    '#initialCalendar.ready.detail.showing': () => {
      const panel = screen.getByRole('dialog', { name: 'Erstgespräch' });
      expect(panel.textContent).toContain('Erika Mustermann');
      expect(within(panel).getByRole('link', { name: 'Termin öffnen' })).toBeTruthy();
    },
  },
  finish: (r) => r.view.unmount(),
});

describe('initial-meetings calendar data', () => {
  it('merges a coach’s consecutive slots into one stretch and keeps coaches apart', () => {
    expect(freeStretches(WEEK.slots, null)).toEqual([
      {
        coachId: COACH_ID,
        startDate: '2026-03-25T08:00:00.000Z',
        endDate: '2026-03-25T09:00:00.000Z',
      },
      {
        coachId: OTHER_COACH_ID,
        startDate: '2026-03-25T08:00:00.000Z',
        endDate: '2026-03-25T08:30:00.000Z',
      },
    ]);
    expect(freeStretches(WEEK.slots, OTHER_COACH_ID)).toHaveLength(1);
  });

  it('lists a day per coach in time order, and nobody on a day without entries', () => {
    const wednesday = dayAgenda(WEEK, null, TODAY);
    expect(wednesday.map((a) => a.coach.name)).toEqual(['Clara Coach', 'Otto Coach']);
    expect(wednesday[0]!.entries.map((e) => e.kind)).toEqual(['free', 'booked']);
    expect(dayAgenda(WEEK, null, TODAY.add({ days: 1 }))).toEqual([]);
  });

  it('shows the holiday on a phone and says there are no initial meetings then', async () => {
    const r = renderCalendar(true);
    await act(async () => {
      r.fakes.loadCalendar!.resolve(WEEK);
      await Promise.resolve();
    });
    await r.user.click(button('Nächster Tag'));
    await act(async () => {
      r.fakes.loadCalendar!.resolve(WEEK);
      await Promise.resolve();
    });
    expect(r.view.container.textContent).toContain('Feiertag: Testfeiertag');
    expect(r.view.container.textContent).toContain('An Feiertagen gibt es keine Erstgespräche.');
    r.view.unmount();
  });
});
