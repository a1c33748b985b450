import { useTranslation } from 'react-i18next';
import { tKey } from '../../i18n/keys';
import { wireDashboard } from '../../machines/wiring/dashboard';
import { useRouteMachine } from '../route-actor';

const FIGURE_LABELS: Record<string, string> = {
  users: tKey('shell:dashboard.figures.users'),
  coaches: tKey('shell:dashboard.figures.coaches'),
  openClients: tKey('shell:dashboard.figures.openClients'),
  upcomingAppointments: tKey('shell:dashboard.figures.upcomingAppointments'),
};

/** `/dashboard` (SUPERADMIN): key figures of the product. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation('shell');
  const [state, send] = useRouteMachine(wireDashboard);
  const number = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'de');
  return (
    <article className="dashboard-page" aria-busy={state.hasTag('busy')}>
      <h1>{t('dashboard.title')}</h1>
      {state.hasTag('error') && (
        <div className="notice notice-error" role="alert">
          <p>{t('dashboard.error')}</p>
          <button
            type="button"
            className="button"
            onClick={() => send({ type: 'dashboard.retry' })}
          >
            {t('dashboard.retry')}
          </button>
        </div>
      )}
      {state.hasTag('busy') && <p role="status">{t('dashboard.loading')}</p>}
      {state.hasTag('loaded') && (
        <>
          <dl className="figures">
            {state.context.figures.map((figure) => (
              <div key={figure.id} className="figure">
                <dt>{t(FIGURE_LABELS[figure.id] ?? figure.id)}</dt>
                <dd>
                  {figure.capped
                    ? t('dashboard.moreThan', { value: number.format(figure.count) })
                    : number.format(figure.count)}
                </dd>
              </div>
            ))}
          </dl>
          <button
            type="button"
            className="button"
            onClick={() => send({ type: 'dashboard.refresh' })}
          >
            {t('dashboard.refresh')}
          </button>
        </>
      )}
    </article>
  );
}
