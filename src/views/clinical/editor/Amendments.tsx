import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../staff/ListParts';
import { formatDateTime } from '../../staff/format';
import type { EditorState, Send } from './types';

export function Amendments({
  state,
  send,
  whoIs,
}: {
  state: EditorState;
  send: Send;
  whoIs: (id: string | null) => string;
}) {
  const { t } = useTranslation('clinical');
  const { t: ts } = useTranslation('staff');
  const amendments = state.context.meta?.amendments ?? [];
  const open = state.hasTag('amending');
  const submitting = state.hasTag('amendSubmitting');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    send({
      type: 'amend.submit',
      reason: String(data.get('reason') ?? '').trim(),
      text: String(data.get('text') ?? '').trim(),
    });
  };
  return (
    <section className="detail-section" aria-labelledby="amendments-heading">
      <h2 id="amendments-heading">{t('amendments.title')}</h2>
      {amendments.length === 0 ? <p>{t('amendments.none')}</p> : null}
      <ol className="amendments">
        {amendments.map((a) => (
          <li key={a.id}>
            <p>
              <strong>
                {t('amendments.byline', {
                  who: a.authorName ?? whoIs(a.authorId),
                  when: formatDateTime(a.createdAt),
                })}
              </strong>
            </p>
            <p>
              {t('amendments.reason')}: {a.reason}
            </p>
            <p className="pre-wrap">{a.text}</p>
          </li>
        ))}
      </ol>
      {open ? (
        <form className="staff-form no-print" onSubmit={submit} aria-labelledby="amend-heading">
          <h3 id="amend-heading">{t('amendments.add')}</h3>
          <div className="field">
            <label htmlFor="amend-reason">{t('amendments.reason')}</label>
            <input
              id="amend-reason"
              name="reason"
              required
              maxLength={1000}
              disabled={submitting}
            />
          </div>
          <div className="field">
            <label htmlFor="amend-text">{t('amendments.text')}</label>
            <textarea
              id="amend-text"
              name="text"
              required
              maxLength={10000}
              rows={5}
              disabled={submitting}
            />
          </div>
          {state.context.error ? (
            <p className="field-error" role="alert">
              {ts(errorKey(state.context.error))}
            </p>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={submitting}>
              {submitting ? t('amendments.saving') : t('amendments.save')}
            </button>
            <button
              type="button"
              className="button"
              disabled={submitting}
              onClick={() => send({ type: 'amend.cancel' })}
            >
              {t('sign.abort')}
            </button>
          </div>
        </form>
      ) : state.can({ type: 'amend.open' }) ? (
        <button
          type="button"
          className="button no-print"
          onClick={() => send({ type: 'amend.open' })}
        >
          {t('amendments.add')}
        </button>
      ) : null}
    </section>
  );
}
