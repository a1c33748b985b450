import type { Temporal } from '@js-temporal/polyfill';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { tKey } from '../../i18n/keys';
import type { AppointmentType, CoachOption, ScheduleError } from '../../machines/scheduling/shared';
import { berlinTime, formatDate, zoneDiffers } from '../../../shared/time';

/** Pieces the three scheduling screens share: week header, zone note, coach picker, errors. */

export const APPOINTMENT_TYPE_LABELS: Record<AppointmentType, string> = {
  initial: tKey('scheduling:appointmentTypes.initial'),
  first: tKey('scheduling:appointmentTypes.first'),
  followup: tKey('scheduling:appointmentTypes.followup'),
  'first-arztkonsultation': tKey('scheduling:appointmentTypes.first-arztkonsultation'),
  'followup-arztkonsultation': tKey('scheduling:appointmentTypes.followup-arztkonsultation'),
  adhoc: tKey('scheduling:appointmentTypes.adhoc'),
};

const WEEKDAY_SHORT = [
  tKey('scheduling:weekdays.short.1'),
  tKey('scheduling:weekdays.short.2'),
  tKey('scheduling:weekdays.short.3'),
  tKey('scheduling:weekdays.short.4'),
  tKey('scheduling:weekdays.short.5'),
  tKey('scheduling:weekdays.short.6'),
  tKey('scheduling:weekdays.short.7'),
];
const WEEKDAY_LONG = [
  tKey('scheduling:weekdays.long.1'),
  tKey('scheduling:weekdays.long.2'),
  tKey('scheduling:weekdays.long.3'),
  tKey('scheduling:weekdays.long.4'),
  tKey('scheduling:weekdays.long.5'),
  tKey('scheduling:weekdays.long.6'),
  tKey('scheduling:weekdays.long.7'),
];

export const weekdayShortKey = (day: Temporal.PlainDate) => WEEKDAY_SHORT[day.dayOfWeek - 1]!;
export const weekdayLongKey = (day: Temporal.PlainDate) => WEEKDAY_LONG[day.dayOfWeek - 1]!;

/** `Montag, 16.03.2026` */
export function useDayLabel() {
  const { t } = useTranslation('scheduling');
  return (day: Temporal.PlainDate) =>
    t('dayLabel', { weekday: t(weekdayLongKey(day)), date: formatDate(day) });
}

/** `09:00–09:30` in Berlin. */
export const timeRange = (startIso: string, endIso: string) =>
  `${berlinTime(startIso)}–${berlinTime(endIso)}`;

const ERROR_KEYS: Record<string, string> = {
  network_error: tKey('scheduling:errors.network'),
  slot_taken: tKey('scheduling:errors.slotTaken'),
  appointment_cancelled: tKey('scheduling:errors.appointmentCancelled'),
  appointment_started: tKey('scheduling:errors.appointmentStarted'),
  not_found: tKey('scheduling:errors.notFound'),
  forbidden: tKey('scheduling:errors.forbidden'),
  forbidden_scope: tKey('scheduling:errors.forbidden'),
  rate_limited: tKey('scheduling:errors.rateLimited'),
  validation_failed: tKey('scheduling:errors.validation'),
};

/** The German message for an error code. */
export function errorKey(error: ScheduleError | null): string {
  return ERROR_KEYS[error?.code ?? ''] ?? tKey('scheduling:errors.generic');
}

/** Shown when the browser's zone is not Berlin's: every time on the page is Berlin time. */
export function ZoneNote({ browserZone }: { browserZone: string }) {
  const { t } = useTranslation('scheduling');
  if (!zoneDiffers(browserZone)) return null;
  return (
    <p className="notice zone-note" role="note">
      {t('zoneNote', { zone: browserZone })}
    </p>
  );
}

export function CoachPicker(props: {
  coaches: CoachOption[];
  value: string | null;
  /** Offer "every coach" (the calendar's filter). */
  allowAll?: boolean;
  disabled?: boolean;
  onChange: (coachId: string | null) => void;
}) {
  const { t } = useTranslation('scheduling');
  const id = useId();
  return (
    <div className="field coach-picker">
      <label htmlFor={id}>{t('coach.label')}</label>
      <select
        id={id}
        value={props.value ?? ''}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value === '' ? null : e.target.value)}
      >
        {props.allowAll ? (
          <option value="">{t('coach.all')}</option>
        ) : props.value === null ? (
          <option value="">{t('coach.choose')}</option>
        ) : null}
        {props.coaches.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Previous / today / next with the period as heading. */
export function PeriodNav(props: {
  title: string;
  previousLabel: string;
  nextLabel: string;
  disabled?: boolean;
  onPrevious: () => void;
  onToday?: () => void;
  onNext: () => void;
}) {
  const { t } = useTranslation('scheduling');
  return (
    <div className="period-nav">
      <button type="button" className="button" disabled={props.disabled} onClick={props.onPrevious}>
        {props.previousLabel}
      </button>
      {props.onToday ? (
        <button type="button" className="button" disabled={props.disabled} onClick={props.onToday}>
          {t('nav.today')}
        </button>
      ) : null}
      <button type="button" className="button" disabled={props.disabled} onClick={props.onNext}>
        {props.nextLabel}
      </button>
      <h2 className="period-title" aria-live="polite">
        {props.title}
      </h2>
    </div>
  );
}

/** `16.03.2026 – 22.03.2026 (KW 12)` */
export function useWeekTitle() {
  const { t } = useTranslation('scheduling');
  return (monday: Temporal.PlainDate) =>
    t('nav.weekTitle', {
      from: formatDate(monday),
      to: formatDate(monday.add({ days: 6 })),
      week: monday.weekOfYear,
    });
}

/** A failed load: the German reason and a retry button. */
export function RetryNotice({
  error,
  onRetry,
}: {
  error: ScheduleError | null;
  onRetry: () => void;
}) {
  const { t } = useTranslation('scheduling');
  return (
    <div className="notice notice-error" role="alert">
      <p>{t(errorKey(error))}</p>
      <button type="button" className="button" onClick={onRetry}>
        {t('retry')}
      </button>
    </div>
  );
}
