import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { readLocalDraft } from '../../machines/actors/local-draft';
import { wireSummaryEditor } from '../../machines/wiring/clinical-editor';
import { useRouteActor } from '../route-actor';
import { DocumentEditorView } from './DocumentEditorView';
import { SUMMARY_FIELD_LABELS, SummaryFields } from './SummaryFields';

/**
 * `/appointments/{appointmentId}/summary`: the appointment's summary in the document editor
 * (its own page, so the leave guard and the print view cover only the document). Opening it
 * starts the draft when there is none yet.
 */
export default function SummaryEditorPage() {
  const { appointmentId } = useParams<{ appointmentId: string }>();
  return <SummaryEditor key={appointmentId} appointmentId={appointmentId} />;
}

function SummaryEditor({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation('clinical');
  const actorRef = useRouteActor(wireSummaryEditor, {
    input: { documentId: appointmentId, localDraft: readLocalDraft(appointmentId) },
  });
  return (
    <DocumentEditorView
      actorRef={actorRef}
      title={t('summary.title')}
      backHref={`/appointments/${appointmentId}`}
      backLabel={t('summary.back')}
      fieldLabels={SUMMARY_FIELD_LABELS}
      Fields={SummaryFields}
    />
  );
}
