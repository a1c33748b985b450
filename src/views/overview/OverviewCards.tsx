import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { OverviewCard } from '../../machines/overview.machine';
import './overview.css';

/** The overview's cards: label, count, and a link where the person acts on it. */
export function OverviewCards({ cards }: { cards: readonly OverviewCard[] }) {
  const { t, i18n } = useTranslation('shell');
  const number = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'de');
  return (
    <ul className="overview-cards" aria-label={t('overview.cardsLabel')}>
      {cards.map((card) => {
        const label = t(`overview.cards.${card.id}`, { defaultValue: card.id });
        const count = card.capped
          ? t('overview.moreThan', { value: number.format(card.count) })
          : number.format(card.count);
        const body = (
          <>
            <span className="overview-card-label">{label}</span>
            <span className="overview-card-count">{count}</span>
          </>
        );
        return (
          <li
            key={card.id}
            className="overview-card"
            data-card={card.id}
            data-waiting={card.waiting && card.count > 0 ? 'true' : undefined}
          >
            {card.href ? (
              <Link href={card.href} className="overview-card-link">
                {body}
              </Link>
            ) : (
              <div className="overview-card-link">{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** Loading, the error with its retry, and the refresh button around an overview. */
export function OverviewStatus({
  busy,
  failed,
  onRetry,
}: {
  busy: boolean;
  failed: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation('shell');
  return (
    <>
      {failed && (
        <div className="notice notice-error" role="alert">
          <p>{t('overview.error')}</p>
          <button type="button" className="button" onClick={onRetry}>
            {t('overview.retry')}
          </button>
        </div>
      )}
      {busy && <p role="status">{t('overview.loading')}</p>}
    </>
  );
}
