import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { errorKey } from '../staff/ListParts';
import '../staff/staff.css';

/**
 * The frame of a record's detail page (appointment, client, coach): the heading, progress
 * while something is under way, and the page's content. Until the record is there the
 * page is `DetailPending`.
 */
export function DetailFrame({
  title,
  busy,
  progress,
  children,
}: {
  title: ReactNode;
  busy: boolean;
  /** What is under way while busy (loading, an action running). */
  progress: string;
  children?: ReactNode;
}) {
  return (
    <article className="staff-page" aria-busy={busy}>
      <h1>{title}</h1>
      {busy ? (
        <p className="list-progress" role="status">
          <span className="spinner" aria-hidden="true" />
          {progress}
        </p>
      ) : null}
      {children}
    </article>
  );
}

/**
 * The page before its record is there: the heading with "loading", or the German reason it
 * could not be loaded, retry where it may help (not for a record that is not there) and the
 * way back to the list.
 */
export function DetailPending({
  title,
  state,
  retry,
  backHref,
  backLabel,
}: {
  title: ReactNode;
  /** The page machine's snapshot: `error` tag, `context.error`, whether it takes `detail.retry`. */
  state: {
    hasTag(tag: 'error'): boolean;
    can(event: { type: 'detail.retry' }): boolean;
    context: { error: { code: string } | null };
  };
  retry: () => void;
  backHref: string;
  backLabel: string;
}) {
  const { t } = useTranslation('staff');
  return (
    <DetailFrame title={title} busy={!state.hasTag('error')} progress={t('list.loading')}>
      {state.hasTag('error') ? (
        <div className="notice notice-error" role="alert">
          <p>{t(errorKey(state.context.error))}</p>
          {state.can({ type: 'detail.retry' }) ? (
            <button type="button" className="button" onClick={retry}>
              {t('list.retry')}
            </button>
          ) : null}
          <Link href={backHref}>{backLabel}</Link>
        </div>
      ) : null}
    </DetailFrame>
  );
}

/** The last action on the record failed: its German reason (the record stays on screen). */
export function ActionFailure({ error }: { error: { code: string } | null }) {
  const { t } = useTranslation('staff');
  if (!error) return null;
  return (
    <div className="notice notice-error" role="alert">
      <p>{t(errorKey(error))}</p>
    </div>
  );
}
