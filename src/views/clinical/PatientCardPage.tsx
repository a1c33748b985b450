import { useTranslation } from 'react-i18next';
import { useParams, useSearch } from 'wouter';
import { wirePatientCardEditor } from '../../machines/wiring/clinical-editor';
import { ClinicalEditorScreen } from './DocumentEditorView';
import { CARD_FIELD_LABELS, PatientCardFields } from './PatientCardFields';

/**
 * `/clients/{clientId}/patient-card`: the client's patient card in the document editor.
 * `?appointmentId=` names the held appointment that starts the card when there is none.
 */
export default function PatientCardPage() {
  const { clientId } = useParams<{ clientId: string }>();
  const createAt = new URLSearchParams(useSearch()).get('appointmentId');
  const { t } = useTranslation('clinical');
  return (
    <ClinicalEditorScreen
      key={`${clientId}:${createAt ?? ''}`}
      wire={wirePatientCardEditor(createAt)}
      documentId={clientId}
      title={t('card.title')}
      backHref={`/clients/${clientId}`}
      backLabel={t('card.back')}
      fieldLabels={CARD_FIELD_LABELS}
      crumb="client"
      Fields={PatientCardFields}
    />
  );
}
