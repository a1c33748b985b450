import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { components } from '../../../shared/contract/product';
import { tKey } from '../../i18n/keys';
import { formatDate, formatRange } from '../staff/format';

type Appointment = components['schemas']['Appointment'];

export const APPOINTMENT_TYPE_LABELS: Record<Appointment['appointmentType'], string> = {
  initial: tKey('staff:appointmentTypes.initial'),
  first: tKey('staff:appointmentTypes.first'),
  followup: tKey('staff:appointmentTypes.followup'),
  'first-arztkonsultation': tKey('staff:appointmentTypes.first-arztkonsultation'),
  'followup-arztkonsultation': tKey('staff:appointmentTypes.followup-arztkonsultation'),
  adhoc: tKey('staff:appointmentTypes.adhoc'),
};

export const MEETING_TYPE_LABELS: Record<Appointment['meetingType'], string> = {
  jitsi: tKey('staff:meetingTypes.jitsi'),
  xodosign: tKey('staff:meetingTypes.xodosign'),
  arztkonsultation: tKey('staff:meetingTypes.arztkonsultation'),
};

/** Abgesagt / nicht erschienen / vorläufig / geplant. */
export function AppointmentStatus({ appointment }: { appointment: Appointment }) {
  const { t } = useTranslation('staff');
  if (appointment.cancelledAt) {
    return (
      <span className="badge badge-cancelled">
        {t('appointments.status.cancelled', { date: formatDate(appointment.cancelledAt) })}
      </span>
    );
  }
  if (appointment.noShow) return <span className="badge badge-noshow">{t('appointments.status.noShow')}</span>;
  if (appointment.isProvisional) return <span className="badge">{t('appointments.status.provisional')}</span>;
  return <span className="badge badge-ok">{t('appointments.status.planned')}</span>;
}

const personName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;

/** The appointments table of the lists and the client detail. */
export function AppointmentsTable({
  rows,
  caption,
  action,
}: {
  rows: readonly Appointment[];
  caption: string;
  /** An extra cell per row (e.g. "Absagen"). */
  action?: (appointment: Appointment) => React.ReactNode;
}) {
  const { t } = useTranslation('staff');
  return (
    <div className="table-scroll">
      <table className="staff-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('appointments.columns.when')}</th>
            <th scope="col">{t('appointments.columns.type')}</th>
            <th scope="col">{t('appointments.columns.client')}</th>
            <th scope="col">{t('appointments.columns.coach')}</th>
            <th scope="col">{t('appointments.columns.status')}</th>
            {action ? <th scope="col">{t('appointments.columns.action')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr key={a.id}>
              <td>
                <Link href={`/appointments/${a.id}`}>{formatRange(a.startDate, a.endDate)}</Link>
              </td>
              <td>{t(APPOINTMENT_TYPE_LABELS[a.appointmentType])}</td>
              <td>
                <Link href={`/clients/${a.clientId}`}>{personName(a.client)}</Link>
              </td>
              <td>{personName(a.coach)}</td>
              <td>
                <AppointmentStatus appointment={a} />
              </td>
              {action ? <td>{action(a)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
