import type { TFunction } from 'i18next';
import { Link } from 'wouter';
import { tKey } from '../../i18n/keys';
import type { ReviewRow, ReviewTab } from '../../machines/actors/staff/review';
import { APPOINTMENT_TYPE_LABELS } from '../appointments-list/parts';
import type { BatchWording } from '../parts/BatchParts';
import type { Column } from '../staff/DataTable';
import { formatDate, formatDateTime } from '../staff/format';

/** Labels and columns of the /review lists. */

export const personName = (p: { firstName: string; lastName: string }) =>
  `${p.firstName} ${p.lastName}`;

export const TAB_LABELS: Record<ReviewTab, string> = {
  summaries: tKey('review:tabs.summaries'),
  patientCards: tKey('review:tabs.patientCards'),
  openSummaries: tKey('review:tabs.openSummaries'),
  openPatientCards: tKey('review:tabs.openPatientCards'),
};
export const RESULT_LABELS: Record<ReviewTab, string> = {
  summaries: tKey('review:results.summaries'),
  patientCards: tKey('review:results.patientCards'),
  openSummaries: tKey('review:results.openSummaries'),
  openPatientCards: tKey('review:results.openPatientCards'),
};
export const EMPTY_LABELS: Record<ReviewTab, string> = {
  summaries: tKey('review:empty.summaries'),
  patientCards: tKey('review:empty.patientCards'),
  openSummaries: tKey('review:empty.openSummaries'),
  openPatientCards: tKey('review:empty.openPatientCards'),
};

export const STATUS_LABELS: Record<string, string> = {
  missing: tKey('review:statuses.missing'),
  new: tKey('review:statuses.new'),
  sent: tKey('review:statuses.sent'),
  completed: tKey('review:statuses.completed'),
  canceled: tKey('review:statuses.canceled'),
};

const REASONS: Record<string, string> = {
  not_found: tKey('review:batch.conflict.reasons.not_found'),
  invalid_transition: tKey('review:batch.conflict.reasons.invalid_transition'),
};

const DONE: Record<ReviewRow['kind'], string> = {
  summary: tKey('review:batch.done.summary'),
  patientCard: tKey('review:batch.done.patientCard'),
};

/** The /review words for the shared batch parts; a refused document on screen is named by person and date. */
export const reviewWording = (
  kind: ReviewRow['kind'],
  rows: readonly ReviewRow[],
): BatchWording => ({
  prefix: 'review:batch',
  action: () => tKey('review:batch.actions.complete'),
  done: () => DONE[kind],
  status: (status) => STATUS_LABELS[status] ?? status,
  reason: (code) => REASONS[code] ?? REASONS.invalid_transition!,
  describe: (id) => {
    const row = rows.find((r) => r.id === id);
    return row ? `${personName(row.client)}, ${formatDate(row.appointmentStartDate)}` : null;
  },
});

/** "seit 3 Tagen", "seit heute". */
const sinceDays = (days: number, t: TFunction<'staff'>) =>
  days === 0 ? t('review:today') : t('review:since', { days: t('review:days', { count: days }) });

/** Appointment (linked), person (linked), coach, status, and the signature or how long it is open. */
export function reviewColumns(tab: ReviewTab): readonly Column<ReviewRow>[] {
  const signed = tab === 'summaries' || tab === 'patientCards';
  return [
    {
      header: tKey('review:columns.appointment'),
      cell: (row, t) => (
        <>
          <Link href={`/appointments/${row.appointmentId}`}>
            {formatDateTime(row.appointmentStartDate)}
          </Link>
          <br />
          <small>{t(APPOINTMENT_TYPE_LABELS[row.appointmentType])}</small>
        </>
      ),
    },
    {
      header: tKey('review:columns.client'),
      cell: (row) => <Link href={`/clients/${row.client.id}`}>{personName(row.client)}</Link>,
    },
    { header: tKey('review:columns.coach'), cell: (row) => personName(row.coach) },
    {
      header: tKey('review:columns.status'),
      width: 'narrow',
      cell: (row, t) => (
        <span className={`status-badge status-${row.status}`}>{t(STATUS_LABELS[row.status]!)}</span>
      ),
    },
    signed
      ? {
          header: tKey('review:columns.signed'),
          cell: (row, t) => (
            <>
              {formatDateTime(row.signedAt)}
              <br />
              <small>{sinceDays(row.days, t)}</small>
            </>
          ),
        }
      : {
          header: tKey('review:columns.overdue'),
          width: 'narrow',
          cell: (row, t) => sinceDays(row.days, t),
        },
  ];
}
