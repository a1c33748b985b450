import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';

/** Any path that is no route of the app. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const [pathname] = useLocation();
  return (
    <article className="not-found-page">
      <h1>{t('notFound.title')}</h1>
      <p>{t('notFound.text', { path: pathname })}</p>
      <Link href="/">{t('notFound.backHome')}</Link>
    </article>
  );
}
