import { useTranslation } from 'react-i18next';
import { Link, Redirect } from 'wouter';
import { ActivationForm } from '../activate/ActivationForm';
import { useOnwardWhenActive } from '../activate/onward';

/**
 * `/notactive`: signed in, but the account is not active (yet). Staff enter their activation
 * code here; clients find the way to client sign-up. Once active, the person goes on to the
 * page they came from.
 */
export default function NotActivePage() {
  const { t } = useTranslation('shell');
  const onward = useOnwardWhenActive();
  if (onward) return <Redirect to={onward} replace />;
  return (
    <article className="notactive-page">
      <h1>{t('notActive.title')}</h1>
      <p className="lead">{t('notActive.intro')}</p>
      <section aria-labelledby="notactive-staff">
        <h2 id="notactive-staff">{t('notActive.staffTitle')}</h2>
        <p>{t('notActive.staffText')}</p>
        <ActivationForm />
      </section>
      <section aria-labelledby="notactive-client">
        <h2 id="notactive-client">{t('notActive.clientTitle')}</h2>
        <p>{t('notActive.clientText')}</p>
        <Link href="/client-signup" className="button">
          {t('notActive.clientSignup')}
        </Link>
      </section>
    </article>
  );
}
