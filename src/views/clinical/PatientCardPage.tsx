import { useTranslation } from 'react-i18next';
import { useParams, useSearch } from 'wouter';
import { readLocalDraft } from '../../machines/actors/local-draft';
import { wirePatientCardEditor } from '../../machines/wiring/clinical-editor';
import { useRouteActor } from '../route-actor';
import { DocumentEditorView } from './DocumentEditorView';
import { CARD_FIELD_LABELS, PatientCardFields } from './PatientCardFields';

/**
 * `/clients/{clientId}/patient-card`: the client's patient card in the document editor.
 * `?appointmentId=` names the held appointment that starts the card when there is none.
 */
export default function PatientCardPage() {
  const { clientId } = useParams<{ clientId: string }>();
  const appointmentId = new URLSearchParams(useSearch()).get('appointmentId');
  return <PatientCardEditor key={clientId} clientId={clientId} createAt={appointmentId} />;
}

function PatientCardEditor({ clientId, createAt }: { clientId: string; createAt: string | null }) {
  const { t } = useTranslation('clinical');
  const actorRef = useRouteActor(wirePatientCardEditor(createAt), {
    input: { documentId: clientId, localDraft: readLocalDraft(clientId) },
  });
  return (
    <DocumentEditorView
      actorRef={actorRef}
      title={t('card.title')}
      backHref={`/clients/${clientId}`}
      backLabel={t('card.back')}
      fieldLabels={CARD_FIELD_LABELS}
      Fields={PatientCardFields}
    />
  );
}
