import { useTranslation } from 'react-i18next';
import type { DocumentContent } from '../../../machines/document-editor.machine';
import { mergeContents } from '../merge';
import type { Send } from './types';

const shown = (value: unknown) =>
  value === undefined || value === null || value === ''
    ? '–'
    : typeof value === 'string'
      ? value
      : JSON.stringify(value, null, 2);

/** Both versions side by side (only the fields that differ), then keep mine, take theirs or merge. */
export function ConflictView({
  mine,
  theirs,
  labels,
  loading,
  failed,
  can,
  send,
}: {
  mine: DocumentContent;
  theirs: DocumentContent | null;
  labels: Record<string, string>;
  loading: boolean;
  failed: boolean;
  can: (type: string) => boolean;
  send: Send;
}) {
  const { t } = useTranslation('clinical');
  const keys = theirs
    ? [...new Set([...Object.keys(mine), ...Object.keys(theirs)])].filter(
        (k) => JSON.stringify(mine[k]) !== JSON.stringify(theirs[k]),
      )
    : [];
  return (
    <section className="detail-section conflict-view" aria-labelledby="conflict-heading">
      <h2 id="conflict-heading">{t('conflict.title')}</h2>
      <p>{t('conflict.explain')}</p>
      {loading ? <p role="status">{t('conflict.loading')}</p> : null}
      {failed ? (
        <div className="notice notice-error" role="alert">
          <p>{t('conflict.loadFailed')}</p>
          <button type="button" className="button" onClick={() => send({ type: 'editor.retry' })}>
            {t('editor.retry')}
          </button>
        </div>
      ) : null}
      {theirs ? (
        <>
          <div className="table-scroll">
            <table className="staff-table">
              <caption className="visually-hidden">{t('conflict.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('conflict.field')}</th>
                  <th scope="col">{t('conflict.mine')}</th>
                  <th scope="col">{t('conflict.theirs')}</th>
                </tr>
              </thead>
              <tbody>
                {keys.map((k) => (
                  <tr key={k}>
                    <th scope="row">{labels[k] ?? k}</th>
                    <td className="pre-wrap">{shown(mine[k])}</td>
                    <td className="pre-wrap">{shown(theirs[k])}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="form-actions">
            <button
              type="button"
              className="button"
              disabled={!can('conflict.keepMine')}
              onClick={() => send({ type: 'conflict.keepMine' })}
            >
              {t('conflict.keepMine')}
            </button>
            <button
              type="button"
              className="button"
              disabled={!can('conflict.takeTheirs')}
              onClick={() => send({ type: 'conflict.takeTheirs' })}
            >
              {t('conflict.takeTheirs')}
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={!can('conflict.merge')}
              onClick={() =>
                send({
                  type: 'conflict.merge',
                  content: mergeContents(mine, theirs, t('conflict.marker')),
                })
              }
            >
              {t('conflict.merge')}
            </button>
          </div>
        </>
      ) : null}
    </section>
  );
}
