import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { components } from '../../../shared/contract/product';
import { appointmentPhase } from '../../../shared/appointment-phase';
import { tKey } from '../../i18n/keys';
import { type Column, Table } from '../staff/DataTable';
import { formatDate, formatRange } from '../staff/format';

export type Appointment = components['schemas']['Appointment'];

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

/**
 * Abgesagt / nicht erschienen / stattgefunden / vergangen (an unconfirmed hold that ended) /
 * läuft / vorläufig / geplant: the phase is the shared rule the server applies too.
 */
export function AppointmentStatus({ appointment }: { appointment: Appointment }) {
  const { t } = useTranslation('staff');
  // The time the row was first drawn: a status does not flip while the page is open.
  const [now] = useState(() => Date.now());
  if (appointment.cancelledAt) {
    return (
      <span className="badge badge-cancelled">
        {t('appointments.status.cancelled', { date: formatDate(appointment.cancelledAt) })}
      </span>
    );
  }
  if (appointment.noShow)
    return <span className="badge badge-noshow">{t('appointments.status.noShow')}</span>;
  const phase = appointmentPhase(appointment, now);
  if (phase === 'ended') {
    return appointment.isProvisional ? (
      <span className="badge">{t('appointments.status.past')}</span>
    ) : (
      <span className="badge">{t('appointments.status.held')}</span>
    );
  }
  if (phase === 'underway')
    return <span className="badge badge-ok">{t('appointments.status.underway')}</span>;
  if (appointment.isProvisional)
    return <span className="badge">{t('appointments.status.provisional')}</span>;
  return <span className="badge badge-ok">{t('appointments.status.planned')}</span>;
}

const personName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;

/** The columns of every appointments table: when (sorts the list by start), type, client, coach, status. */
export const APPOINTMENT_COLUMNS: readonly Column<Appointment>[] = [
  {
    header: tKey('staff:appointments.columns.when'),
    sortKey: 'startDate',
    cell: (a) => <Link href={`/appointments/${a.id}`}>{formatRange(a.startDate, a.endDate)}</Link>,
  },
  {
    header: tKey('staff:appointments.columns.type'),
    cell: (a, t) => t(APPOINTMENT_TYPE_LABELS[a.appointmentType]),
  },
  {
    header: tKey('staff:appointments.columns.client'),
    cell: (a) => <Link href={`/clients/${a.clientId}`}>{personName(a.client)}</Link>,
  },
  { header: tKey('staff:appointments.columns.coach'), cell: (a) => personName(a.coach) },
  {
    header: tKey('staff:appointments.columns.status'),
    cell: (a) => <AppointmentStatus appointment={a} />,
  },
];

/** The appointments table of the client detail (the lists use `DataTable` with the same columns). */
export function AppointmentsTable({
  rows,
  caption,
}: {
  rows: readonly Appointment[];
  caption: string;
}) {
  return <Table columns={APPOINTMENT_COLUMNS} rows={rows} caption={caption} />;
}
