import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, useLocation, useSearch } from 'wouter';
import { decideAccess, type RouteAccess } from '../access';
import type { RoutePageProps } from '../routes';
import { useAppServices } from '../services';
import { useSessionStatus } from '../../views/session-status';
import { LogoutButton } from './LogoutButton';
import { PageLoading } from './PageLoading';

export interface RouteGuardProps {
  access: RouteAccess | undefined;
  /** The page; it gets the route's `params` like a wouter route component. */
  component: ComponentType<RoutePageProps>;
  params: Record<string, string | undefined>;
}

/**
 * The protected wrapper (the specification's screens and routes): renders the page only when the
 * session allows it; otherwise redirects to /login or /notactive carrying the page as `returnTo`.
 */
export function RouteGuard({ access, component: Page, params }: RouteGuardProps) {
  const status = useSessionStatus();
  const [pathname] = useLocation();
  const search = useSearch();
  const decision = decideAccess(status, access, search ? `${pathname}?${search}` : pathname);
  switch (decision.kind) {
    case 'render':
      return <Page params={params} />;
    case 'wait':
      return <PageLoading />;
    case 'redirect':
      return <Redirect to={decision.to} replace />;
    case 'partial':
      return <PartialLogin />;
    case 'forbidden':
      return <NoAccess />;
  }
}

function NoAccess() {
  const { t } = useTranslation('common');
  return (
    <article className="no-access">
      <h1>{t('access.forbiddenTitle')}</h1>
      <p>{t('access.forbiddenText')}</p>
    </article>
  );
}

/** Signed in at the provider, but the product's login call failed: retry or sign out. */
function PartialLogin() {
  const { t } = useTranslation('common');
  const { session } = useAppServices();
  return (
    <article className="partial-login" role="alert">
      <h1>{t('access.partialTitle')}</h1>
      <p>{t('access.partialText')}</p>
      <div className="form-actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() => session.send({ type: 'session.retry' })}
        >
          {t('access.retry')}
        </button>
        <LogoutButton />
      </div>
    </article>
  );
}
