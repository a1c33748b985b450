import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { wireDashboard } from '../../machines/wiring/overview';
import { OverviewCards, OverviewStatus } from '../overview/OverviewCards';
import { useRouteMachine } from '../route-actor';

/** `/dashboard` (SUPERADMIN): what an admin acts on, as cards with links. */
export default function DashboardPage() {
  const { t } = useTranslation('shell');
  const [state, send] = useRouteMachine(wireDashboard);
  return (
    <article className="dashboard-page" aria-busy={state.hasTag('busy')}>
      <h1>{t('dashboard.title')}</h1>
      <p>
        <Link href="/admin">{t('dashboard.adminLink')}</Link>
      </p>
      <OverviewStatus
        busy={state.hasTag('busy')}
        failed={state.hasTag('error')}
        onRetry={() => send({ type: 'overview.retry' })}
      />
      {state.hasTag('loaded') && (
        <>
          <OverviewCards cards={state.context.cards} />
          <button
            type="button"
            className="button"
            onClick={() => send({ type: 'overview.refresh' })}
          >
            {t('overview.refresh')}
          </button>
        </>
      )}
    </article>
  );
}
