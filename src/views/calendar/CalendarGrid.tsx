import dayjs from 'dayjs';
import 'dayjs/locale/de';
import { useMemo, type CSSProperties } from 'react';
import { Calendar, dayjsLocalizer, type EventProps, type Formats } from 'react-big-calendar';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import { useTranslation } from 'react-i18next';
import type { CalendarMode } from '../../machines/scheduling/calendar-period';
import type { CalendarEvent, CoachOption, PrivateBusyTime } from '../../machines/scheduling/shared';
import type { FreeStretch } from '../../machines/scheduling/initial-pool';
import type { Temporal } from '@js-temporal/polyfill';
import { berlinNow, dayDate, slotKind, toGridData, type GridEvent } from './grid-events';
import { berlinTime } from '../../../shared/time';
import { APPOINTMENT_TYPE_LABELS } from './parts';
import './calendar-grid.css';

// German names and weeks from Monday; only the calendar chunk uses dayjs.
dayjs.locale('de');
const localizer = dayjsLocalizer(dayjs);

const FORMATS: Formats = {
  timeGutterFormat: 'HH:mm',
  dayFormat: 'dd DD.MM.',
  eventTimeRangeFormat: ({ start, end }) =>
    `${dayjs(start).format('HH:mm')}–${dayjs(end).format('HH:mm')}`,
};

const noop = () => undefined;

/** Entries this long or shorter have room for two lines: time, then client (and the rest, cut). */
const SHORT_MS = 30 * 60_000;

/**
 * How many lines of text fit under an entry's time line: an hour is 5rem (calendar-grid.css),
 * a line about 1.07rem, the time line and the padding about 1.5rem. At least one, the client.
 */
const textLines = (e: GridEvent) =>
  Math.max(1, Math.floor(((e.end.getTime() - e.start.getTime()) / 3_600_000) * 4.67 - 1.4));

interface GridProps {
  mode: CalendarMode;
  anchor: Temporal.PlainDate;
  events: readonly CalendarEvent[];
  /** Free time shown as entries of its own (the initial-meetings calendar). */
  free?: readonly FreeStretch[];
  /** Coaches' private busy times, entries that say only "Privat belegt". */
  privateBusy?: readonly PrivateBusyTime[];
  coaches: readonly CoachOption[];
  /** One column per coach (the day view of "Alle Coaches" on wide screens). */
  coachColumns: boolean;
  /** Name the coach in each entry ("Alle Coaches" without coach columns). */
  showCoach: boolean;
  canOpen: boolean;
  openId: string | null;
  onOpen: (appointmentId: string) => void;
}

/**
 * The calendar as a time grid: hours down the side, appointments placed and sized by their
 * time (overlapping ones side by side), holidays in the all-day row, availability and blockers
 * as shaded slots, the current time as a line. A view of the machine's context: it holds no
 * state of its own (no toolbar; the page's navigation drives `date` and `view`).
 */
export function CalendarGrid(props: GridProps) {
  const { t } = useTranslation('scheduling');
  const grid = useMemo(
    () => toGridData(props.events, props.free, props.privateBusy),
    [props.events, props.free, props.privateBusy],
  );
  const coachName = (id: string | null) => props.coaches.find((c) => c.id === id)?.name;
  const resources = props.coachColumns && props.coaches.length > 0 ? [...props.coaches] : undefined;
  /** "Privat belegt (ganztägig)", naming the coaches when the grid shows several. */
  const privateDayText = (coachIds: readonly string[] | undefined) => {
    if (!coachIds?.length) return undefined;
    const names =
      props.showCoach || props.coachColumns
        ? [...new Set(coachIds)]
            .map((id) => coachName(id))
            .filter(Boolean)
            .join(', ')
        : '';
    return names ? t('calendar.privateDayOf', { coaches: names }) : t('calendar.privateDay');
  };
  const open = (e: GridEvent) => {
    if (props.canOpen && e.source.appointmentId) props.onOpen(e.source.appointmentId);
  };
  const components = useMemo(
    () => ({
      event: ({ event }: EventProps<GridEvent>) => (
        <GridEntry
          event={event.source}
          free={event.free}
          isPrivate={event.private}
          coach={props.showCoach ? coachName(event.source.coachId) : undefined}
        />
      ),
      // Plain text: the library's own heading cells carry table roles without a table around them.
      header: ({ date, label }: { date: Date; label: string }) => (
        <DayHeading
          label={label}
          holiday={grid.holidays.get(plainDate(date))}
          privateDay={privateDayText(grid.privateDays.get(plainDate(date)))}
        />
      ),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [props.showCoach, props.coaches, grid],
  );
  // The day view has no day heading: a holiday shows above the grid.
  const dayHoliday = props.mode === 'day' ? grid.holidays.get(props.anchor.toString()) : undefined;
  const dayPrivate =
    props.mode === 'day'
      ? privateDayText(grid.privateDays.get(props.anchor.toString()))
      : undefined;
  return (
    <>
      {dayHoliday || dayPrivate ? (
        <p className="calendar-holiday">
          <DayHeading label="" holiday={dayHoliday} privateDay={dayPrivate} />
        </p>
      ) : null}
      <Calendar<GridEvent, CoachOption>
        className="calendar-grid"
        localizer={localizer}
        culture="de"
        formats={FORMATS}
        messages={{
          allDay: t('calendar.grid.allDay'),
          noEventsInRange: t('calendar.grid.noEvents'),
        }}
        events={grid.events}
        date={dayDate(props.anchor)}
        view={props.mode}
        views={['week', 'day']}
        onNavigate={noop}
        onView={noop}
        toolbar={false}
        drilldownView={null}
        resources={resources}
        resourceIdAccessor="id"
        resourceTitleAccessor="name"
        step={30}
        timeslots={2}
        min={new Date(1970, 0, 1, grid.firstHour)}
        max={
          grid.lastHour >= 24 ? new Date(1970, 0, 1, 23, 59) : new Date(1970, 0, 1, grid.lastHour)
        }
        getNow={berlinNow}
        dayLayoutAlgorithm="no-overlap"
        components={components}
        selected={grid.events.find(
          (e) => e.source.appointmentId !== null && e.source.appointmentId === props.openId,
        )}
        tooltipAccessor={(e) =>
          e.private
            ? t('calendar.privateBusy')
            : e.source.privateConflict
              ? `${e.title} · ${t('calendar.privateConflict')}`
              : e.title
        }
        eventPropGetter={(e) => ({
          style: { '--event-lines': textLines(e) } as CSSProperties,
          className: e.private
            ? 'grid-private'
            : e.allDay
              ? 'grid-holiday'
              : [
                  e.free ? 'grid-free' : 'grid-appointment',
                  e.source.isProvisional ? 'grid-provisional' : '',
                  e.source.privateConflict ? 'grid-conflict' : '',
                  e.end.getTime() - e.start.getTime() <= SHORT_MS ? 'grid-short' : '',
                ]
                  .filter(Boolean)
                  .join(' '),
        })}
        slotPropGetter={(date, resourceId) => {
          const kind = slotKind(
            grid.spans,
            date,
            typeof resourceId === 'string' ? resourceId : null,
          );
          return kind ? { className: `grid-${kind}` } : {};
        }}
        onSelectEvent={open}
        onKeyPressEvent={(e, ev) => {
          const key = 'key' in ev ? ev.key : '';
          if (key !== 'Enter' && key !== ' ') return;
          ev.preventDefault();
          open(e);
        }}
      />
    </>
  );
}

const plainDate = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

function DayHeading({
  label,
  holiday,
  privateDay,
}: {
  label: string;
  holiday: string | undefined;
  privateDay?: string | undefined;
}) {
  const { t } = useTranslation('scheduling');
  return (
    <>
      {label}
      {label && holiday ? ' · ' : null}
      {holiday ? (
        <span className="grid-holiday">{t('calendar.holiday', { name: holiday })}</span>
      ) : null}
      {(label || holiday) && privateDay ? ' · ' : null}
      {privateDay ? <span className="grid-private-day">{privateDay}</span> : null}
    </>
  );
}

/**
 * One entry's text: the time on its own line, then the client and the rest (the CSS keeps a
 * short entry to those two lines). Separators sit outside the spans so the accessible name
 * keeps its spaces.
 */
function GridEntry({
  event: e,
  free,
  isPrivate,
  coach,
}: {
  event: CalendarEvent;
  free: boolean;
  isPrivate: boolean;
  coach: string | undefined;
}) {
  const { t } = useTranslation('scheduling');
  if (isPrivate || free)
    return (
      <>
        <span className="event-time">
          {berlinTime(e.startDate)}
          <span className="event-end">–{berlinTime(e.endDate)}</span>
        </span>{' '}
        <span className="event-text">
          <span className="event-title">
            {t(isPrivate ? 'calendar.privateBusy' : 'initialCalendar.free')}
          </span>
          {coach ? (
            <>
              {' · '}
              <span className="event-coach">{coach}</span>
            </>
          ) : null}
        </span>
      </>
    );
  if (e.kind === 'holiday')
    return <span className="event-title">{t('calendar.holiday', { name: e.title })}</span>;
  return (
    <>
      <span className="event-time">
        {berlinTime(e.startDate)}
        <span className="event-end">–{berlinTime(e.endDate)}</span>
      </span>{' '}
      <span className="event-text">
        <span className="event-title">{e.title}</span>
        {e.appointmentType ? (
          <>
            {' · '}
            <span className="event-meta">{t(APPOINTMENT_TYPE_LABELS[e.appointmentType])}</span>
          </>
        ) : null}
        {e.isProvisional ? (
          <>
            {' · '}
            <span className="event-meta">{t('calendar.provisional')}</span>
          </>
        ) : null}
        {e.privateConflict ? (
          <>
            {/* The separator goes inside, hidden with the warning: no "· ·" shows. */}{' '}
            <span className="event-conflict">· {t('calendar.privateConflict')}</span>
          </>
        ) : null}
        {coach ? (
          <>
            {' · '}
            <span className="event-coach">{coach}</span>
          </>
        ) : null}
      </span>
    </>
  );
}
