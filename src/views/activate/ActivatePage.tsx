import { useTranslation } from 'react-i18next';
import { Redirect, useSearch } from 'wouter';
import { safeReturnTo } from '../../lib/return-to';
import { useSessionStatus } from '../session-status';
import { ActivationForm } from './ActivationForm';

/** `/activate`: a staff member enters the activation code an admin gave them. */
export default function ActivatePage() {
  const { t } = useTranslation('shell');
  const status = useSessionStatus();
  const returnTo = safeReturnTo(new URLSearchParams(useSearch()).get('returnTo'));
  if (status.kind === 'signedIn' && status.session.active) {
    return <Redirect to={returnTo ?? '/'} replace />;
  }
  return (
    <article className="activate-page">
      <h1>{t('activation.title')}</h1>
      <p>{t('activation.intro')}</p>
      <ActivationForm />
    </article>
  );
}
