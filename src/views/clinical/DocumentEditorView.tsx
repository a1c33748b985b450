import { useSelector } from '@xstate/react';
import { useCallback, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { readLocalDraft } from '../../machines/actors/local-draft';
import type {
  DocumentContent,
  documentEditorMachine,
} from '../../machines/document-editor.machine';
import type { RouteEffects } from '../../machines/wiring/effects';
import { useRouteActor } from '../route-actor';
import { formatDate, formatDateTime } from '../staff/format';
import { useCrumbName } from '../parts/crumb-names';
import { DetailFrame } from '../record-detail/DetailFrame';
import { STATUS_LABELS } from './labels';
import { SubjectHeader } from './editor/SubjectHeader';
import { LeaveQuestion } from './editor/LeaveQuestion';
import { LoadFailed } from './editor/LoadFailed';
import { SaveState } from './editor/SaveState';
import { SignArea } from './editor/SignArea';
import { ConflictView } from './editor/ConflictView';
import { Amendments } from './editor/Amendments';
import { ReviewComments } from './editor/ReviewComments';
import { useWhoIs } from './editor/who-is';
import type { EditorActor } from './editor/types';
import '../parts/batch.css';
import './clinical.css';

export type { EditorActor } from './editor/types';

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
