import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionPermission } from '../../session-status';
import { errorKey } from '../../staff/ListParts';
import { formatDateTime } from '../../staff/format';
import type { EditorState, Send } from './types';

/**
 * The reviewers' comments on a signed document (name and time), and for a reviewer (ADMIN,
 * SUPERADMIN) the form to add one. Sent through the machine (`comment.submit`).
 */
export function ReviewComments({ state, send }: { state: EditorState; send: Send }) {
  const { t } = useTranslation('clinical');
  const { t: ts } = useTranslation('staff');
  const reviewer = useSessionPermission('completeReview');
  const comments = state.context.meta?.reviewComments ?? [];
  const submitting = state.hasTag('commenting');
  if (!reviewer && comments.length === 0) return null;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get('comment') ?? '').trim();
    if (text) send({ type: 'comment.submit', text });
  };
  return (
    <section className="detail-section" aria-labelledby="review-comments-heading">
      <h2 id="review-comments-heading">{t('review.title')}</h2>
      {comments.length === 0 ? <p>{t('review.none')}</p> : null}
      <ol className="amendments">
        {comments.map((c) => (
          <li key={c.id}>
            <p>
              <strong>
                {t('amendments.byline', {
                  who: c.authorName ?? t('signature.unknown'),
                  when: formatDateTime(c.createdAt),
                })}
              </strong>
            </p>
            <p className="pre-wrap">{c.text}</p>
          </li>
        ))}
      </ol>
      {(reviewer && state.can({ type: 'comment.submit', text: 'x' })) || submitting ? (
        // Keyed by the count: a stored comment empties the form; a refusal keeps the text.
        <form
          key={comments.length}
          className="staff-form no-print"
          onSubmit={submit}
          aria-labelledby="review-comment-add"
        >
          <div className="field">
            <label id="review-comment-add" htmlFor="review-comment">
              {t('review.add')}
            </label>
            <textarea
              id="review-comment"
              name="comment"
              required
              maxLength={4000}
              rows={3}
              disabled={submitting}
            />
          </div>
          {state.context.error && !state.hasTag('amending') ? (
            <p className="field-error" role="alert">
              {ts(errorKey(state.context.error))}
            </p>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="button" disabled={submitting}>
              {submitting ? t('amendments.saving') : t('review.save')}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
