import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { DocumentSubject } from '../../../machines/document-editor.machine';
import { formatDateTime } from '../../staff/format';
import { APPOINTMENT_TYPE_LABELS } from '../../appointments-list/parts';

/** Whose document it is: the client and the appointment (date, time, type), each a link back. */
export function SubjectHeader({ subject }: { subject: DocumentSubject }) {
  const { t } = useTranslation('clinical');
  const { t: ts } = useTranslation('staff');
  const type = subject.appointmentType as keyof typeof APPOINTMENT_TYPE_LABELS | null;
  return (
    <dl className="clinical-subject">
      <div>
        <dt>{t('subject.client')}</dt>
        <dd>
          <Link href={`/clients/${subject.clientId}`}>{subject.clientName}</Link>
        </dd>
      </div>
      {subject.appointmentId && subject.appointmentStart ? (
        <div>
          <dt>{t('subject.appointment')}</dt>
          <dd>
            <Link href={`/appointments/${subject.appointmentId}`}>
              {formatDateTime(subject.appointmentStart)}
            </Link>
            {type && APPOINTMENT_TYPE_LABELS[type] ? ` · ${ts(APPOINTMENT_TYPE_LABELS[type])}` : ''}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
