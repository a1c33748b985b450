import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { wireClinicalExport } from '../../machines/wiring/clinical-export';
import { ConfirmActionPanel } from '../coaches/ConfirmActionPanel';
import { useRouteActor } from '../route-actor';

/**
 * "Alle klinischen Dokumente als PDF" on the client's page (admins): the copy a client may ask
 * for (Art. 15 DSGVO, § 630g BGB). Asks first, because the export is recorded in the access log.
 */
export function ClinicalExport({ clientId, name }: { clientId: string; name: string }) {
  const { t } = useTranslation('clinical');
  const actorRef = useRouteActor(wireClinicalExport);
  const open = useSelector(actorRef, (s) => s.hasTag('open'));
  return (
    <section className="detail-section" aria-labelledby="clinical-export-heading">
      <h2 id="clinical-export-heading">{t('export.title')}</h2>
      <p>{t('export.explain')}</p>
      <div className="page-actions">
        <button
          type="button"
          className="button"
          disabled={open}
          onClick={() => actorRef.send({ type: 'action.ask', payload: { clientId } })}
        >
          {t('export.button')}
        </button>
      </div>
      <ConfirmActionPanel
        actorRef={actorRef}
        question={t('export.question', { name })}
        confirmLabel={t('export.confirm')}
        danger={false}
      >
        <p>{t('export.logged')}</p>
      </ConfirmActionPanel>
    </section>
  );
}
