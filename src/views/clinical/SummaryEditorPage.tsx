import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { wireSummaryEditor } from '../../machines/wiring/clinical-editor';
import { ClinicalEditorScreen } from './DocumentEditorView';
import { SUMMARY_FIELD_LABELS, SummaryFields } from './SummaryFields';

/**
 * `/appointments/{appointmentId}/summary`: the appointment's summary in the document editor
 * (its own page, so the leave guard and the print view cover only the document). Opening it
 * creates nothing: a summary that is not there yet is the empty template until the first change.
 */
export default function SummaryEditorPage() {
  const { appointmentId } = useParams<{ appointmentId: string }>();
  const { t } = useTranslation('clinical');
  return (
    <ClinicalEditorScreen
      key={appointmentId}
      wire={wireSummaryEditor}
      documentId={appointmentId}
      title={t('summary.title')}
      backHref={`/appointments/${appointmentId}`}
      backLabel={t('summary.back')}
      fieldLabels={SUMMARY_FIELD_LABELS}
      crumb="appointment"
      Fields={SummaryFields}
    />
  );
}
