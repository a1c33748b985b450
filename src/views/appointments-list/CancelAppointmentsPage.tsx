import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { z } from 'zod';
import type { ApiClient } from '../../api/client';
import type { components } from '../../../shared/contract/product';
import { loadAppointmentsPageActor } from '../../machines/actors/staff/appointments';
import { rowsOf } from '../../machines/list.machine';
import { todayInBerlin } from '../../../shared/time';
import { ListFrame } from '../staff/ListParts';
import { useUrlList } from '../staff/useUrlList';
import { AppointmentsTable } from './parts';

type Appointment = components['schemas']['Appointment'];

const NO_FILTERS = z.object({});

/**
 * `/cancel-appointment`: the live appointments from today on, soonest first, each with the way
 * to cancel it (`/cancel-appointment/{id}` asks for confirmation).
 */
export default function CancelAppointmentsPage() {
  const { t } = useTranslation('staff');
  const [loadPage] = useState(() => (api: ApiClient) =>
    loadAppointmentsPageActor(api, {
      cancelled: 'false',
      from: todayInBerlin().toString(),
      sortDirection: 'asc',
    }),
  );
  const actorRef = useUrlList({ path: '/cancel-appointment', filters: NO_FILTERS, loadPage });
  const rows = useSelector(actorRef, (s) => rowsOf<Appointment>(s.context));
  return (
    <article className="staff-page">
      <h1>{t('cancel.pickerTitle')}</h1>
      <p className="lead">{t('cancel.pickerIntro')}</p>
      <ListFrame actorRef={actorRef} label={t('cancel.pickerResults')} emptyText={t('cancel.pickerEmpty')}>
        <AppointmentsTable
          rows={rows}
          caption={t('cancel.pickerResults')}
          action={(a) => (
            <Link href={`/cancel-appointment/${a.id}`} className="button">
              {t('cancel.action')}
            </Link>
          )}
        />
      </ListFrame>
    </article>
  );
}
