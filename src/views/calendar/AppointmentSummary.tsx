import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { tKey } from '../../i18n/keys';
import type { Appointment } from '../../machines/scheduling/shared';
import { berlinDate } from '../../../shared/time';
import { timeRange, useDayLabel } from './parts';

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
