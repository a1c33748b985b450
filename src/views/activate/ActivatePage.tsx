import { useTranslation } from 'react-i18next';
import { Redirect } from 'wouter';
import { AuthWidget } from '../auth/AuthWidget';
import { useSessionStatus } from '../session-status';
import { ActivationForm } from './ActivationForm';
import { useReturnWhenActive } from './return-when-active';

/**
 * `/activate`, the link in a new staff member's invitation mail: signed out, they register
 * here (or switch to sign-in, if they did already); signed in, they enter the activation code
 * an admin gave them. Open route, so the mail's link never ends on the staff sign-in, whose
 * code mail would say there is no account for the address.
 */
export default function ActivatePage() {
  const { t } = useTranslation('shell');
  const status = useSessionStatus();
  const activeTo = useReturnWhenActive();
  if (activeTo !== null) return <Redirect to={activeTo} replace />;
  if (status.kind === 'pending') return null;
  return (
    <article className="activate-page">
      <h1>{t('activation.title')}</h1>
      {status.kind === 'signedOut' ? (
        <>
          <p>{t('activation.registerIntro')}</p>
          <h2>{t('activation.registerSteps')}</h2>
          <AuthWidget flow="registration" />
        </>
      ) : (
        <>
          <p>{t('activation.intro')}</p>
          <h2>{t('activation.codeStep')}</h2>
          <ActivationForm />
        </>
      )}
    </article>
  );
}
