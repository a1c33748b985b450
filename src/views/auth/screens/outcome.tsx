import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useFlow } from '../flowContext';
import { BackAndSkip, ErrorBanner, Screen } from '../parts';
import { Busy } from './common';

/** Screens that wait, end or fail the flow, and the profile loaded on demand. */

// Only the profile needs its screen; it loads on demand so /login stays light.
const ProfileScreen = lazy(() => import('../ProfileScreen'));

export function ThirdParty() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('thirdparty.title')}>
      <p>{t('thirdparty.text')}</p>
      <BackAndSkip />
    </Screen>
  );
}

export function Preflight() {
  return (
    <section className="auth-screen">
      <ErrorBanner />
      <Busy />
    </section>
  );
}

export function Success() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('success.title')}>
      <p role="status">{t('success.text')}</p>
    </Screen>
  );
}

export function AccountDeleted() {
  const { t } = useTranslation('auth');
  return (
    <Screen title={t('accountDeleted.title')}>
      <p role="status">{t('accountDeleted.text')}</p>
    </Screen>
  );
}

/** The error screen: the message and Continue, which restarts the flow. */
export function ErrorScreen() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  return (
    <Screen title={t('errorScreen.title')}>
      {flow.context.error ? null : <p role="alert">{t('errors.somethingWentWrong')}</p>}
      <button
        type="button"
        className="button button-primary"
        onClick={() => flow.send({ type: 'flow.restart' })}
      >
        {t('errorScreen.continue')}
      </button>
    </Screen>
  );
}

export function LazyProfile() {
  return (
    <Suspense fallback={<Busy />}>
      <ProfileScreen />
    </Suspense>
  );
}
