import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { z } from 'zod';
import type { components } from '../../../shared/contract/product';
import { tKey } from '../../i18n/keys';
import { loadFailedMessagesPageActor } from '../../machines/actors/staff/messages';
import { StaffListPage } from '../staff/ActionLinks';
import { CHANNELS, messageTitle } from '../staff/communication-labels';
import { type Column, DataTable } from '../staff/DataTable';
import { formatDateTime } from '../staff/format';
import { useUrlList } from '../staff/useUrlList';

type Communication = components['schemas']['Communication'];

/** No filters: only the page is in the URL. */
const FAILED_FILTERS = z.object({});

const COLUMNS: readonly Column<Communication>[] = [
  { header: tKey('staff:failedMessages.columns.when'), cell: (c) => formatDateTime(c.createdAt) },
  { header: tKey('staff:failedMessages.columns.channel'), cell: (c, t) => t(CHANNELS[c.channel]) },
  { header: tKey('staff:failedMessages.columns.message'), cell: (c, t) => messageTitle(c, t) },
  { header: tKey('staff:failedMessages.columns.recipient'), cell: (c) => c.recipient },
  {
    header: tKey('staff:failedMessages.columns.error'),
    cell: (c, t) => c.error ?? t('failedMessages.noReason'),
  },
  {
    header: tKey('staff:failedMessages.columns.about'),
    cell: (c, t) => (
      <ul className="plain-list">
        {c.clientId ? (
          <li>
            <Link href={`/clients/${c.clientId}`}>{t('failedMessages.client')}</Link>
          </li>
        ) : null}
        {c.appointmentId ? (
          <li>
            <Link href={`/appointments/${c.appointmentId}`}>{t('failedMessages.appointment')}</Link>
          </li>
        ) : null}
      </ul>
    ),
  },
];

/**
 * `/messages/failed` (admins and onboarding managers): e-mails and text messages that could not
 * be delivered, so someone can correct the address or number and tell the client another way.
 */
export default function FailedMessagesPage() {
  const { t } = useTranslation('staff');
  const actorRef = useUrlList({
    path: '/messages/failed',
    filters: FAILED_FILTERS,
    loadPage: loadFailedMessagesPageActor,
  });
  return (
    <StaffListPage title={t('failedMessages.title')}>
      <p>{t('failedMessages.intro')}</p>
      <DataTable
        actorRef={actorRef}
        columns={COLUMNS}
        label={t('failedMessages.results')}
        emptyText={t('failedMessages.empty')}
      />
    </StaffListPage>
  );
}
