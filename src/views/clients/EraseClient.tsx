import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { wireClientErase } from '../../machines/wiring/client-erase';
import { ConfirmActionPanel } from '../coaches/ConfirmActionPanel';
import { useRouteActor } from '../route-actor';
import { useSessionPermission } from '../session-status';

/**
 * "Klient:in löschen" on the client's page (ADMIN and SUPERADMIN; the server checks too): the
 * question says what is erased and what the law keeps, then the result (a refusal in German).
 */
export function EraseClient({
  client,
}: {
  client: { id: string; firstName: string; lastName: string };
}) {
  if (!useSessionPermission('eraseClients')) return null;
  return <EraseClientAction client={client} />;
}

function EraseClientAction({
  client,
}: {
  client: { id: string; firstName: string; lastName: string };
}) {
  const { t } = useTranslation('catalog');
  const actorRef = useRouteActor(wireClientErase);
  const open = useSelector(actorRef, (s) => s.hasTag('open'));
  return (
    <>
      <div className="page-actions">
        <button
          type="button"
          className="button button-danger"
          disabled={open}
          onClick={() => actorRef.send({ type: 'action.ask', payload: { id: client.id } })}
        >
          {t('erase.button')}
        </button>
      </div>
      <ConfirmActionPanel
        actorRef={actorRef}
        question={t('erase.question', { name: `${client.firstName} ${client.lastName}` })}
        confirmLabel={t('erase.confirm')}
      >
        <p>{t('erase.erased')}</p>
        <p>{t('erase.kept')}</p>
        <p>{t('erase.invoicedHint')}</p>
        <p>
          <strong>{t('erase.irreversible')}</strong>
        </p>
      </ConfirmActionPanel>
    </>
  );
}
