import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useAppServices } from '../services';

/**
 * The red global banner after a network error; retry reloads the page (the specification's error
 * catalogue).
 */
export function NetworkBanner() {
  const { t } = useTranslation('common');
  const { networkBanner } = useAppServices();
  const visible = useSelector(networkBanner, (snapshot) => snapshot.context.visible);
  if (!visible) return null;
  return (
    <div className="network-banner" role="alert">
      <p>{t('networkBanner.globalServerError')}</p>
      <button type="button" onClick={() => networkBanner.send({ type: 'retry' })}>
        {t('networkBanner.retry')}
      </button>
    </div>
  );
}
