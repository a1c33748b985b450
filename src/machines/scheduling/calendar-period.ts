import type { Temporal } from '@js-temporal/polyfill';
import { assign, type EventObject } from 'xstate';
import { mondayOf } from '../../../shared/time';

/**
 * What both calendars (`/calendar`, `/calendar/initial-meetings`) do alike around the week they
 * show: week or day, the screen width, stepping a period, the coach filter. Each machine takes
 * these pieces typed for itself, so its own states and guards stay checked by its setup.
 */

export type CalendarMode = 'week' | 'day';

export interface CalendarPeriodContext {
  /** The coach filter; null: every coach (or, for a coach, their own calendar). */
  coachId: string | null;
  mode: CalendarMode;
  /** The screen is narrow (phones): always the day view. */
  narrow: boolean;
  /** What a wide screen shows (the person's last choice). */
  wideMode: CalendarMode;
  /** The day shown (day view) or a day of the week shown (week view). */
  anchor: Temporal.PlainDate;
}

export type CalendarPeriodEvent =
  | { type: 'period.previous' }
  | { type: 'period.next' }
  | { type: 'period.today'; today: Temporal.PlainDate }
  | { type: 'viewport.change'; narrow: boolean }
  | { type: 'mode.select'; mode: CalendarMode }
  | { type: 'coach.select'; coachId: string | null };

/** The days the current mode shows. */
export function visibleDays(
  context: Pick<CalendarPeriodContext, 'mode' | 'anchor'>,
): Temporal.PlainDate[] {
  if (context.mode === 'day') return [context.anchor];
  const monday = mondayOf(context.anchor);
  return Array.from({ length: 7 }, (_, i) => monday.add({ days: i }));
}

/** The anchor one period on (`1`) or back (`-1`): a day in the day view, else a week. */
export function stepAnchor(
  context: Pick<CalendarPeriodContext, 'mode' | 'anchor'>,
  direction: 1 | -1,
): Temporal.PlainDate {
  return context.anchor.add({ days: direction * (context.mode === 'day' ? 1 : 7) });
}

/** The first mode: a phone starts on the day, a wide screen on the week. */
export const initialPeriod = (input: { today: Temporal.PlainDate; narrow?: boolean }) => ({
  mode: input.narrow ? ('day' as const) : ('week' as const),
  narrow: input.narrow ?? false,
  wideMode: 'week' as const,
  anchor: input.today,
});

/**
 * The pieces, typed for the machine that uses them:
 * - `actions`: `previousPeriod`, `nextPeriod`, `thisPeriod` (to `period.today`'s day) and
 *   `pickCoach`, for its setup;
 * - `guards`: `isWide`, for its setup;
 * - `on`: the machine-wide `viewport.change` (narrow screens show a day, a wide one what the
 *   person chose last) and `mode.select` (only on wide screens).
 */
export const calendarPeriod = <
  TContext extends CalendarPeriodContext,
  TEvent extends EventObject,
>() => {
  const set = <TExpressionEvent extends EventObject>(
    change: (context: TContext, event: TExpressionEvent) => Partial<CalendarPeriodContext>,
  ) =>
    assign<TContext, TExpressionEvent, undefined, TEvent, never>(
      ({ context, event }) => change(context, event) as Partial<TContext>,
    );
  type Of<T extends CalendarPeriodEvent['type']> = Extract<CalendarPeriodEvent, { type: T }>;
  return {
    actions: {
      previousPeriod: set<TEvent>((context) => ({ anchor: stepAnchor(context, -1) })),
      nextPeriod: set<TEvent>((context) => ({ anchor: stepAnchor(context, 1) })),
      thisPeriod: set<TEvent>((context, event) => ({
        anchor:
          event.type === 'period.today'
            ? (event as EventObject as Of<'period.today'>).today
            : context.anchor,
      })),
      pickCoach: set<TEvent>((context, event) => ({
        coachId:
          event.type === 'coach.select'
            ? (event as EventObject as Of<'coach.select'>).coachId
            : context.coachId,
      })),
    },
    guards: {
      isWide: ({ context }: { context: Pick<CalendarPeriodContext, 'narrow'> }) => !context.narrow,
    },
    on: {
      'viewport.change': {
        actions: set<Of<'viewport.change'>>((context, event) => ({
          narrow: event.narrow,
          mode: event.narrow ? 'day' : context.wideMode,
        })),
      },
      // Each calendar loads its whole week whatever the mode, so switching needs no request.
      'mode.select': {
        guard: 'isWide' as const,
        actions: set<Of<'mode.select'>>((_, event) => ({ wideMode: event.mode, mode: event.mode })),
      },
    },
  };
};
