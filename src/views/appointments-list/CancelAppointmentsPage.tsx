import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { z } from 'zod';
import type { ApiClient } from '../../api/client';
import { loadAppointmentsPageActor } from '../../machines/actors/staff/appointments';
import { tKey } from '../../i18n/keys';
import { type Column, DataTable } from '../staff/DataTable';
import { useUrlList } from '../staff/useUrlList';
import { APPOINTMENT_COLUMNS, type Appointment } from './parts';

const NO_FILTERS = z.object({});

const COLUMNS: readonly Column<Appointment>[] = [
  ...APPOINTMENT_COLUMNS,
  {
    header: tKey('staff:appointments.columns.action'),
    width: 'narrow',
    cell: (a, t) => (
      <Link href={`/cancel-appointment/${a.id}`} className="button">
        {t('cancel.action')}
      </Link>
    ),
  },
];

/** A page of the live appointments that have not started yet, soonest first. */
const loadUpcomingPage = (api: ApiClient) =>
  loadAppointmentsPageActor(api, { cancelled: 'false', sortDirection: 'asc' }, 'now');

/**
 * `/cancel-appointment`: the live appointments that have not started yet, soonest first, each with the way
 * to cancel it (`/cancel-appointment/{id}` asks for confirmation).
 */
export default function CancelAppointmentsPage() {
  const { t } = useTranslation('staff');
  const actorRef = useUrlList({
    path: '/cancel-appointment',
    filters: NO_FILTERS,
    loadPage: loadUpcomingPage,
  });
  return (
    <article className="staff-page">
      <h1>{t('cancel.pickerTitle')}</h1>
      <p className="lead">{t('cancel.pickerIntro')}</p>
      <DataTable
        actorRef={actorRef}
        columns={COLUMNS}
        label={t('cancel.pickerResults')}
        emptyText={t('cancel.pickerEmpty')}
      />
    </article>
  );
}
