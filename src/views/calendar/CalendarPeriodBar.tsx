import type { Temporal } from '@js-temporal/polyfill';
import { useTranslation } from 'react-i18next';
import type { CalendarMode } from '../../machines/scheduling/calendar-period';
import { mondayOf, todayInBerlin } from '../../../shared/time';
import { PeriodNav, useDayLabel, useWeekTitle } from './parts';

/** What the period bar sends: both calendars step and switch through the same events. */
export type CalendarPeriodEvent =
  | { type: 'mode.select'; mode: CalendarMode }
  | { type: 'period.previous' }
  | { type: 'period.next' }
  | { type: 'period.today'; today: Temporal.PlainDate };

/**
 * The week/day switch (wide screens only: a phone always shows a day) and the previous /
 * today / next steps of the shown period.
 */
export function CalendarPeriodBar({
  mode,
  narrow,
  anchor,
  disabled,
  send,
}: {
  mode: CalendarMode;
  narrow: boolean;
  anchor: Temporal.PlainDate;
  disabled: boolean;
  send: (event: CalendarPeriodEvent) => void;
}) {
  const { t } = useTranslation('scheduling');
  const weekTitle = useWeekTitle();
  const dayLabel = useDayLabel();
  const day = mode === 'day';
  return (
    <>
      {narrow ? null : (
        <div className="calendar-view-switch" role="group" aria-label={t('calendar.view.label')}>
          {(['week', 'day'] as const).map((m) => (
            <button
              key={m}
              type="button"
              className="button"
              aria-pressed={mode === m}
              onClick={() => send({ type: 'mode.select', mode: m })}
            >
              {t(`calendar.view.${m}`)}
            </button>
          ))}
        </div>
      )}
      <PeriodNav
        title={day ? dayLabel(anchor) : weekTitle(mondayOf(anchor))}
        previousLabel={day ? t('nav.previousDay') : t('nav.previousWeek')}
        nextLabel={day ? t('nav.nextDay') : t('nav.nextWeek')}
        disabled={disabled}
        onPrevious={() => send({ type: 'period.previous' })}
        onToday={() => send({ type: 'period.today', today: todayInBerlin() })}
        onNext={() => send({ type: 'period.next' })}
      />
    </>
  );
}
