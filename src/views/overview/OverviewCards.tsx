import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { SnapshotFrom } from 'xstate';
import type { OverviewCard, OverviewEvent, overviewMachine } from '../../machines/overview.machine';
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

/**
 * A page of the overview machine ("Heute", the admin dashboard): title, what stands under it,
 * loading and the error with its retry; once loaded, the page's own part, the cards and the
 * refresh button.
 */
export function OverviewPage({
  className,
  title,
  lead,
  state,
  send,
  children,
}: {
  className: string;
  title: string;
  lead: ReactNode;
  state: SnapshotFrom<typeof overviewMachine>;
  send: (event: OverviewEvent) => void;
  /** What the page shows above the cards once loaded. */
  children?: ReactNode;
}) {
  const { t } = useTranslation('shell');
  return (
    <article className={className} aria-busy={state.hasTag('busy')}>
      <h1>{title}</h1>
      {lead}
      <OverviewStatus
        busy={state.hasTag('busy')}
        failed={state.hasTag('error')}
        onRetry={() => send({ type: 'overview.retry' })}
      />
      {state.hasTag('loaded') && (
        <>
          {children}
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

/** Loading, and the error with its retry, above an overview. */
function OverviewStatus({
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
