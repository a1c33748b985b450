import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { tKey } from '../../i18n/keys';
import type { Appointment, ScheduleError } from '../../machines/scheduling/shared';
import { berlinDate } from '../../../shared/time';
import { AppointmentDialog } from './AppointmentDialog';
import { RetryNotice, timeRange, useDayLabel } from './parts';

/** The German key of an appointment's state, the most final first. */
export function appointmentStatusKey(a: Appointment): string {
  if (a.cancelledAt) return tKey('scheduling:calendar.status.cancelled');
  if (a.noShow) return tKey('scheduling:calendar.status.noShow');
  if (a.isProvisional) return tKey('scheduling:calendar.status.provisional');
  return tKey('scheduling:calendar.status.scheduled');
}

/** Who meets whom and when: the first terms of a calendar's appointment detail. */
export function AppointmentPeople({ appointment: a }: { appointment: Appointment }) {
  const { t } = useTranslation('scheduling');
  const dayLabel = useDayLabel();
  return (
    <>
      <dt>{t('calendar.detail.client')}</dt>
      <dd>
        <Link href={`/clients/${a.clientId}`}>{a.clientName}</Link>
      </dd>
      <dt>{t('calendar.detail.coach')}</dt>
      <dd>
        {a.coach.firstName} {a.coach.lastName}
      </dd>
      <dt>{t('calendar.detail.when')}</dt>
      <dd>
        {dayLabel(berlinDate(a.startDate))},{' '}
        <span className="time-range">{timeRange(a.startDate, a.endDate)}</span>
      </dd>
    </>
  );
}

/**
 * A calendar's appointment dialog: while it loads, a failure with its retry, the calendar's
 * own content, then opening the appointment's page, the calendar's `actions` and closing.
 */
export function AppointmentDetailDialog(props: {
  title: string;
  appointment: Appointment | null;
  loading: boolean;
  /** The detail failed to load: `error` says why. */
  failed: boolean;
  error: ScheduleError | null;
  onRetry: () => void;
  onClose: () => void;
  /** Closing waits for a running request. */
  closeDisabled?: boolean;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation('scheduling');
  const headingId = useId();
  const a = props.appointment;
  return (
    <AppointmentDialog labelledBy={headingId} onClose={props.onClose}>
      <h2 id={headingId}>{props.title}</h2>
      {props.loading ? <div className="page-loading" aria-busy="true" /> : null}
      {props.failed ? <RetryNotice error={props.error} onRetry={props.onRetry} /> : null}
      {props.children}
      <div className="form-actions">
        {a ? (
          <Link href={`/appointments/${a.id}`} className="button button-primary">
            {t('calendar.detail.open')}
          </Link>
        ) : null}
        {props.actions}
        <button
          type="button"
          className="button"
          disabled={props.closeDisabled}
          onClick={props.onClose}
        >
          {t('close')}
        </button>
      </div>
    </AppointmentDialog>
  );
}
