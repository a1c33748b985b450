import { useTranslation } from 'react-i18next';
import { Redirect } from 'wouter';
import { ActivationForm } from './ActivationForm';
import { useOnwardWhenActive } from './onward';

/** `/activate`: a staff member enters the activation code an admin gave them. */
export default function ActivatePage() {
  const { t } = useTranslation('shell');
  const onward = useOnwardWhenActive();
  if (onward) return <Redirect to={onward} replace />;
  return (
    <article className="activate-page">
      <h1>{t('activation.title')}</h1>
      <p>{t('activation.intro')}</p>
      <ActivationForm />
    </article>
  );
}
