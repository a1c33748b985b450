import { useSelector } from '@xstate/react';
import { useCallback, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { readLocalDraft } from '../../machines/actors/local-draft';
import type {
  DocumentContent,
  DocumentSubject,
  documentEditorMachine,
} from '../../machines/document-editor.machine';
import type { RouteEffects } from '../../machines/wiring/effects';
import { useRouteActor } from '../route-actor';
import { useSessionPermission, useSessionStatus } from '../session-status';
import { errorKey } from '../staff/ListParts';
import { formatDate, formatDateTime } from '../staff/format';
import { APPOINTMENT_TYPE_LABELS } from '../appointments-list/parts';
import { useCrumbName } from '../parts/crumb-names';
import { DetailFrame } from '../record-detail/DetailFrame';
import { STATUS_LABELS } from './labels';
import { mergeContents } from './merge';
import { ModalDialog } from '../parts/ModalDialog';
import '../parts/batch.css';
import './clinical.css';

export type EditorActor = ActorRefFrom<typeof documentEditorMachine>;

/** What a document's template gets: the text, whether it may change, and the change event. */
export interface FieldsProps {
  content: DocumentContent;
  readOnly: boolean;
  change: (field: string, value: unknown) => void;
}

/**
 * The page around one clinical document: its template's fields, the save state,
 * blockers, the signing question, the conflict view with both versions, and after signing the
 * signature with its hash check, the amendments and "Nachtrag hinzufügen". Reads the editor
 * machine's tags and `can()`; `Fields` renders the template (summary or patient card).
 */
export function DocumentEditorView({
  actorRef,
  title,
  intro,
  backHref,
  backLabel,
  fieldLabels,
  Fields,
  crumb,
}: {
  actorRef: EditorActor;
  title: string;
  /** Which breadcrumb names whose document it is: the client's (card) or the appointment's (summary). */
  crumb: 'client' | 'appointment';
  intro?: ReactNode;
  backHref: string;
  backLabel: string;
  /** German names of the template's fields, for the conflict view. */
  fieldLabels: Record<string, string>;
  Fields: (props: FieldsProps) => ReactNode;
}) {
  const { t } = useTranslation('clinical');
  const state = useSelector(actorRef, (s) => s);
  const send = actorRef.send;
  const { content, meta, status, error, conflict } = state.context;
  const saveNow = useCallback(() => actorRef.send({ type: 'editor.saveNow' }), [actorRef]);
  const whoIs = useWhoIs();
  const subject = state.context.subject;
  useCrumbName(
    subject
      ? crumb === 'client'
        ? `/clients/${subject.clientId}`
        : `/appointments/${subject.appointmentId}`
      : '',
    subject
      ? crumb === 'client' || !subject.appointmentStart
        ? subject.clientName
        : `${subject.clientName}, ${formatDate(subject.appointmentStart)}`
      : null,
  );

  if (state.hasTag('loading') || state.hasTag('loadFailed')) {
    return (
      <DetailFrame title={title} busy={state.hasTag('loading')} progress={t('editor.loading')}>
        {state.hasTag('error') ? (
          <LoadFailed
            error={error}
            retry={() => send({ type: 'editor.retry' })}
            backHref={backHref}
            backLabel={backLabel}
          />
        ) : null}
      </DetailFrame>
    );
  }

  const readOnly = !state.hasTag('editable');
  const change = (field: string, value: unknown) => send({ type: 'editor.change', field, value });
  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      saveNow();
    }
  };
  const blockers = status === 'new' ? (meta?.blockers ?? []) : [];

  return (
    <DetailFrame
      title={title}
      busy={state.hasTag('signing') || state.hasTag('loading')}
      progress={t('editor.working')}
    >
      <div className="clinical-document">
        <p className="print-only clinical-print-title">{title}</p>
        {subject ? <SubjectHeader subject={subject} /> : null}
        {intro}
        <p className="clinical-status">
          {state.hasTag('absent') ? null : (
            <>
              <span className={`status-badge status-${status}`}>
                {t(STATUS_LABELS[status])}
              </span>{' '}
            </>
          )}
          <SaveState state={state} retry={() => send({ type: 'editor.retry' })} />
        </p>
        <div className="page-actions no-print">
          <Link href={backHref}>{backLabel}</Link>
          <button type="button" className="button" onClick={() => window.print()}>
            {t('editor.print')}
          </button>
        </div>

        {blockers.length > 0 ? (
          <div className="notice" role="note" aria-labelledby="blockers-heading">
            <p id="blockers-heading">
              <strong>{t('editor.blockersTitle')}</strong>
            </p>
            <ul>
              {blockers.map((b) => (
                <li key={b.code}>{b.message}</li>
              ))}
            </ul>
          </div>
        ) : null}

        {state.hasTag('conflict') ? (
          <ConflictView
            mine={conflict?.mine ?? content}
            theirs={conflict?.theirs ?? null}
            labels={fieldLabels}
            loading={state.hasTag('loading')}
            failed={state.hasTag('error')}
            can={(type) => state.can({ type } as never)}
            send={send}
          />
        ) : (
          <form
            className="staff-form clinical-form"
            onSubmit={(e) => e.preventDefault()}
            onKeyDown={onKeyDown}
            aria-label={title}
          >
            <Fields content={content} readOnly={readOnly} change={change} />
          </form>
        )}

        {status === 'new' && !state.hasTag('conflict') ? (
          <SignArea state={state} send={send} blocked={blockers.length > 0} />
        ) : null}

        {meta?.signature ? (
          <section className="detail-section signature-block" aria-labelledby="signature-heading">
            <h2 id="signature-heading">{t('signature.title')}</h2>
            <p>
              {t('signature.signedBy', {
                who: meta.signature.signedByName ?? whoIs(meta.signature.signedById),
                when: formatDateTime(meta.signature.signedAt),
              })}
            </p>
            {meta.completed ? (
              <p>
                {t('review.completedBy', {
                  who: meta.completed.byName ?? t('signature.unknown'),
                  when: formatDateTime(meta.completed.at),
                })}
              </p>
            ) : null}
            <p
              className={meta.signature.verified ? 'hash-ok' : 'hash-bad'}
              role={meta.signature.verified ? undefined : 'alert'}
            >
              {meta.signature.verified ? t('signature.verified') : t('signature.notVerified')}
            </p>
            <p className="hash">
              {t('signature.hash')} <code>{meta.signature.contentHash}</code>
            </p>
          </section>
        ) : (
          <section className="print-only signature-block">
            <p>{t('signature.printLine')}</p>
          </section>
        )}

        {state.hasTag('readOnly') && status !== 'canceled' ? (
          <Amendments state={state} send={send} whoIs={whoIs} />
        ) : null}
        {state.hasTag('readOnly') && status !== 'canceled' ? (
          <ReviewComments state={state} send={send} />
        ) : null}
        <LeaveQuestion open={state.hasTag('leaving')} send={send} />
      </div>
    </DetailFrame>
  );
}

/**
 * A route's editor: the machine wired by `wire`, started on `documentId` with what the tab
 * kept of it (sessionStorage) before a reload.
 */
export function ClinicalEditorScreen({
  wire,
  documentId,
  ...view
}: {
  wire: (effects: RouteEffects) => typeof documentEditorMachine;
  documentId: string;
} & Omit<Parameters<typeof DocumentEditorView>[0], 'actorRef'>) {
  const actorRef = useRouteActor(wire, {
    input: { documentId, localDraft: readLocalDraft(documentId) },
  });
  return <DocumentEditorView actorRef={actorRef} {...view} />;
}

type EditorState = ReturnType<EditorActor['getSnapshot']>;
type Send = EditorActor['send'];

/** Whose document it is: the client and the appointment (date, time, type), each a link back. */
function SubjectHeader({ subject }: { subject: DocumentSubject }) {
  const { t } = useTranslation('clinical');
  const { t: ts } = useTranslation('staff');
  const type = subject.appointmentType as keyof typeof APPOINTMENT_TYPE_LABELS | null;
  return (
    <dl className="clinical-subject">
      <div>
        <dt>{t('subject.client')}</dt>
        <dd>
          <Link href={`/clients/${subject.clientId}`}>{subject.clientName}</Link>
        </dd>
      </div>
      {subject.appointmentId && subject.appointmentStart ? (
        <div>
          <dt>{t('subject.appointment')}</dt>
          <dd>
            <Link href={`/appointments/${subject.appointmentId}`}>
              {formatDateTime(subject.appointmentStart)}
            </Link>
            {type && APPOINTMENT_TYPE_LABELS[type] ? ` · ${ts(APPOINTMENT_TYPE_LABELS[type])}` : ''}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

/** "Seite verlassen?" while an in-app link waits (the machine's `leaving`); Escape stays. */
function LeaveQuestion({ open, send }: { open: boolean; send: Send }) {
  const { t } = useTranslation('clinical');
  const stay = () => send({ type: 'leave.stay' });
  return (
    <ModalDialog
      open={open}
      className="batch-dialog no-print"
      labelledBy="leave-question"
      onCancel={stay}
    >
      {open ? (
        <>
          <h2 id="leave-question">{t('leave.title')}</h2>
          <p>{t('editor.leaveQuestion')}</p>
          <div className="form-actions">
            <button type="button" className="button button-primary" onClick={stay}>
              {t('leave.stay')}
            </button>
            <button
              type="button"
              className="button"
              onClick={() => send({ type: 'leave.confirm' })}
            >
              {t('leave.confirm')}
            </button>
          </div>
        </>
      ) : null}
    </ModalDialog>
  );
}

function LoadFailed({
  error,
  retry,
  backHref,
  backLabel,
}: {
  error: { code: string } | null;
  retry: () => void;
  backHref: string;
  backLabel: string;
}) {
  const { t } = useTranslation('clinical');
  const { t: ts } = useTranslation('staff');
  const text =
    error?.code === 'appointment_not_held'
      ? t('editor.notHeld')
      : error?.code === 'not_found'
        ? t('editor.notFound')
        : ts(errorKey(error));
  return (
    <div className="notice notice-error" role="alert">
      <p>{text}</p>
      <button type="button" className="button" onClick={retry}>
        {t('editor.retry')}
      </button>{' '}
      <Link href={backHref}>{backLabel}</Link>
    </div>
  );
}

/** "Gespeichert", "Speichert…", "Offline – wird erneut versucht" … as a polite live region. */
function SaveState({ state, retry }: { state: EditorState; retry: () => void }) {
  const { t } = useTranslation('clinical');
  const { t: ts } = useTranslation('staff');
  const text = state.hasTag('readOnly')
    ? t('save.locked')
    : state.hasTag('absent')
      ? t('save.absent')
      : state.hasTag('saving')
        ? t('save.saving')
        : state.hasTag('offline')
          ? t('save.offline')
          : state.hasTag('conflict')
            ? t('save.conflict')
            : state.hasTag('error')
              ? t('save.failed', { reason: ts(errorKey(state.context.error)) })
              : state.hasTag('unsaved')
                ? t('save.unsaved')
                : t('save.saved');
  return (
    <span className="save-state no-print" role="status" aria-live="polite">
      {text}
      {state.can({ type: 'editor.retry' }) && !state.hasTag('conflict') ? (
        <>
          {' '}
          <button type="button" className="button button-small" onClick={retry}>
            {t('editor.retry')}
          </button>
        </>
      ) : null}
    </span>
  );
}

function SignArea({ state, send, blocked }: { state: EditorState; send: Send; blocked: boolean }) {
  const { t } = useTranslation('clinical');
  const { t: ts } = useTranslation('staff');
  const error = state.context.error;
  const waiting = state.context.signRequested;
  if (state.hasTag('confirmingSign') || state.hasTag('signing')) {
    const signing = state.hasTag('signing');
    return (
      <div
        className="confirm-box no-print"
        role="alertdialog"
        aria-labelledby="sign-question"
        aria-describedby="sign-effect"
      >
        <p id="sign-question">
          <strong>{t('sign.question')}</strong>
        </p>
        <p id="sign-effect">{t('sign.effect')}</p>
        <div className="form-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={signing}
            onClick={() => send({ type: 'sign.confirm' })}
          >
            {signing ? t('sign.signing') : t('sign.confirm')}
          </button>
          <button
            type="button"
            className="button"
            disabled={signing}
            onClick={() => send({ type: 'sign.abort' })}
          >
            {t('sign.abort')}
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="form-actions no-print">
      <button
        type="button"
        className="button button-primary"
        // Blockers are the last save's: while the text is unsaved the click saves it and asks after.
        disabled={(blocked && !state.hasTag('unsaved')) || !state.can({ type: 'editor.sign' })}
        onClick={() => send({ type: 'editor.sign' })}
      >
        {t('sign.button')}
      </button>
      <span className="field-hint" role={waiting ? 'status' : undefined}>
        {waiting ? t('sign.afterSave') : blocked ? t('sign.blockedHint') : t('sign.hint')}
      </span>
      {error && state.hasTag('saved') ? (
        <p className="field-error" role="alert">
          {t('sign.failed', { reason: ts(errorKey(error)) })}
        </p>
      ) : null}
    </div>
  );
}

const shown = (value: unknown) =>
  value === undefined || value === null || value === ''
    ? '–'
    : typeof value === 'string'
      ? value
      : JSON.stringify(value, null, 2);

/** Both versions side by side (only the fields that differ), then keep mine, take theirs or merge. */
function ConflictView({
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

function Amendments({
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

/**
 * The reviewers' comments on a signed document (name and time), and for a reviewer (ADMIN,
 * SUPERADMIN) the form to add one. Sent through the machine (`comment.submit`).
 */
function ReviewComments({ state, send }: { state: EditorState; send: Send }) {
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

/** A user id as a name: the signed-in person by name, anyone else by a short id. */
function useWhoIs() {
  const { t } = useTranslation('clinical');
  const status = useSessionStatus();
  const me = status.kind === 'signedIn' ? status.session : null;
  return (userId: string | null) => {
    if (userId === null) return t('signature.unknown');
    if (me && userId === me.userId) return me.coach?.name ?? me.email ?? t('signature.you');
    return t('signature.otherUser', { id: userId.slice(0, 8) });
  };
}
