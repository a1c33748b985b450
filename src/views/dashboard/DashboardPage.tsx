import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { wireDashboard } from '../../machines/wiring/overview';
import { OverviewPage } from '../overview/OverviewCards';
import { useRouteMachine } from '../route-actor';

/** `/dashboard` (SUPERADMIN): what an admin acts on, as cards with links. */
export default function DashboardPage() {
  const { t } = useTranslation('shell');
  const [state, send] = useRouteMachine(wireDashboard);
  return (
    <OverviewPage
      className="dashboard-page"
      title={t('dashboard.title')}
      lead={
        <p>
          <Link href="/admin">{t('dashboard.adminLink')}</Link>
        </p>
      }
      state={state}
      send={send}
    />
  );
}
