import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import type { RulesAnnouncement } from '../../machines/billing-rules.machine';
import { wireBillingRules } from '../../machines/wiring/billing-rules';
import { useRouteActor } from '../route-actor';
import { RulePreview } from './RulePreview';
import { RuleRow } from './RuleRow';
import '../staff/staff.css';
import './billing-rules.css';

/** `/billing/rules` (ADMIN): the ordered rules, reorder, delete, and the preview for an appointment. */
export default function BillingRulesPage() {
  const { t } = useTranslation(['billingRules', 'staff']);
  const search = useSearch();
  // An appointment named in the address (`?appointmentId=`) is previewed at once.
  const actorRef = useRouteActor(wireBillingRules, {
    input: { appointmentId: new URLSearchParams(search).get('appointmentId') ?? undefined },
  });
  const rules = useSelector(actorRef, (s) => s.context.rules);
  const status = useSelector(actorRef, (s) =>
    s.hasTag('loadError') ? 'failed' : s.hasTag('loading') ? 'loading' : 'ready',
  );
  const saving = useSelector(actorRef, (s) => s.hasTag('saving'));
  const reloading = useSelector(actorRef, (s) => s.hasTag('reloading'));
  const announcement = useSelector(actorRef, (s) => s.context.announcement);
  const movedId = useSelector(actorRef, (s) => s.context.movedId);
  const [dragged, setDragged] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const pressed = useRef<'up' | 'down' | null>(null);

  // A moved row is placed anew in the DOM: keep focus on the button that moved it (or its other one at an end).
  useEffect(() => {
    if (!movedId || !pressed.current || !listRef.current) return;
    const row = listRef.current.querySelector<HTMLElement>(`[data-rule-id="${movedId}"]`);
    const first = row?.querySelector<HTMLButtonElement>(
      `[data-move="${pressed.current}"]:not(:disabled)`,
    );
    (first ?? row?.querySelector<HTMLButtonElement>('[data-move]:not(:disabled)'))?.focus();
  }, [movedId, rules]);

  const move = (id: string, to: number, via: 'up' | 'down' | null) => {
    pressed.current = via;
    actorRef.send({ type: 'rules.move', id, to });
  };

  return (
    <article className="staff-page billing-rules">
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      <div className="page-actions">
        <Link href="/billing/rules/new" className="button button-primary">
          {t('newRule')}
        </Link>
      </div>
      <p
        className={
          announcement?.kind === 'stale' || announcement?.kind === 'moveFailed'
            ? 'notice notice-error'
            : 'rules-announcement'
        }
        role="status"
        aria-live="polite"
      >
        {announcement ? announcementText(t, announcement) : ''}
      </p>
      {status === 'loading' || saving || reloading ? (
        <p className="list-progress" role="status">
          <span className="spinner" aria-hidden="true" />
          {saving ? t('saving') : reloading ? t('reloading') : t('loading')}
        </p>
      ) : null}
      {status === 'failed' ? (
        <div className="notice notice-error" role="alert">
          <p>{t('errors.load')}</p>
          <button
            type="button"
            className="button"
            onClick={() => actorRef.send({ type: 'rules.retry' })}
          >
            {t('retry')}
          </button>
        </div>
      ) : null}
      {status === 'ready' && rules.length === 0 ? <p className="list-empty">{t('empty')}</p> : null}
      {rules.length > 0 && status !== 'failed' ? (
        <ol className="rule-list" ref={listRef} aria-label={t('listLabel')}>
          {rules.map((rule, index) => (
            <RuleRow
              key={rule.id}
              actorRef={actorRef}
              rule={rule}
              index={index}
              count={rules.length}
              dragging={dragged === rule.id}
              onMove={move}
              onDragStart={() => setDragged(rule.id)}
              onDragEnd={() => setDragged(null)}
              onDrop={() => {
                if (dragged) move(dragged, index, null);
                setDragged(null);
              }}
            />
          ))}
        </ol>
      ) : null}
      <RulePreview actorRef={actorRef} />
    </article>
  );
}

function announcementText(
  t: (key: string, values?: Record<string, unknown>) => string,
  a: RulesAnnouncement,
) {
  switch (a.kind) {
    case 'moved':
      return t('announce.moved', { name: a.name, position: a.position, count: a.count });
    case 'stale':
      return t('announce.stale');
    case 'moveFailed':
      return t('announce.moveFailed', { name: a.name });
    case 'deleted':
      return t('announce.deleted', { name: a.name });
  }
}
