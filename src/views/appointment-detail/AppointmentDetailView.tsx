import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { roomIsOpen } from '../../../shared/meeting-window';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { components } from '../../../shared/contract/product';
import type { appointmentDetailMachine } from '../../machines/appointment-detail.machine';
import {
  APPOINTMENT_TYPE_LABELS,
  AppointmentStatus,
  MEETING_TYPE_LABELS,
} from '../appointments-list/parts';
import { eventActionLabel } from '../events/actions';
import { formatDateTime, formatRange } from '../staff/format';
import { ActionFailure, DetailFrame, DetailPending } from '../record-detail/DetailFrame';
import { ConfirmActions } from '../parts/ConfirmActions';
import { EventButton } from '../parts/EventButton';
import { SummarySection } from '../clinical/ClinicalSections';
import { CHANNELS, COMMUNICATION_STATUS, messageTitle } from '../staff/communication-labels';
import { type Column, Table } from '../staff/DataTable';
import { tKey } from '../../i18n/keys';

type DetailActor = ActorRefFrom<typeof appointmentDetailMachine>;
type Communication = components['schemas']['Communication'];
type BusinessEvent = components['schemas']['BusinessEvent'];

/**
 * One appointment for staff, with its actions. `mode="cancel"` is `/cancel-appointment/{id}`:
 * the same page, opened with the cancellation question.
 */
export function AppointmentDetailView({
  actorRef,
  mode,
  clinicalWriter = false,
}: {
  actorRef: DetailActor;
  mode: 'detail' | 'cancel';
  /** May open the summary (the coach, admins); others see its status only. */
  clinicalWriter?: boolean;
}) {
  const { t } = useTranslation('staff');
  const state = useSelector(actorRef, (s) => s);
  const send = actorRef.send;
  const { record: detail, actionError } = state.context;
  const busy = state.hasTag('busy');
  const title = mode === 'cancel' ? t('cancel.title') : t('appointment.title');
  const progress = state.hasTag('loading') ? t('list.loading') : t('appointment.working');

  if (!detail) {
    return (
      <DetailPending
        title={title}
        state={state}
        retry={() => send({ type: 'detail.retry' })}
        backHref="/appointments"
        backLabel={t('appointment.backToList')}
      />
    );
  }

  const a = detail.appointment;
  const live = a.cancelledAt === null;
  const confirming = state.hasTag('confirmingCancel');
  const cancelling = state.hasTag('cancelling');

  return (
    <DetailFrame title={title} busy={busy} progress={progress}>
      <dl className="details">
        <dt>{t('appointment.when')}</dt>
        <dd>
          {formatRange(a.startDate, a.endDate)} {t('appointment.berlinTime')}
        </dd>
        <dt>{t('appointment.type')}</dt>
        <dd>{t(APPOINTMENT_TYPE_LABELS[a.appointmentType])}</dd>
        <dt>{t('appointment.status')}</dt>
        <dd>
          <AppointmentStatus appointment={a} />
        </dd>
        <dt>{t('appointment.client')}</dt>
        <dd>
          <Link href={`/clients/${a.clientId}`}>{a.clientName}</Link>
        </dd>
        <dt>{t('appointment.coach')}</dt>
        <dd>
          {a.coach.firstName} {a.coach.lastName}
        </dd>
        <dt>{t('appointment.number')}</dt>
        <dd>{a.appointmentNumber}</dd>
        <dt>{t('appointment.meetingType')}</dt>
        <dd>{t(MEETING_TYPE_LABELS[a.meetingType])}</dd>
        <dt>{t('appointment.meetingCode')}</dt>
        <dd>
          <code>{a.meetingCodeCoach}</code>
          {live && <MeetingLinks meetingCode={a.meetingCodeCoach} appointment={a} />}
        </dd>
        {a.isProvisional && a.provisionalUntil ? (
          <>
            <dt>{t('appointment.provisionalUntil')}</dt>
            <dd>{formatDateTime(a.provisionalUntil)}</dd>
          </>
        ) : null}
        <dt>{t('appointment.createdAt')}</dt>
        <dd>{formatDateTime(a.createdAt)}</dd>
      </dl>

      <ActionFailure error={actionError} />

      {confirming || cancelling ? (
        <div
          className="confirm-box"
          role="alertdialog"
          aria-labelledby="cancel-question"
          aria-describedby="cancel-effect"
        >
          <p id="cancel-question">
            <strong>
              {t('cancel.question', {
                when: formatRange(a.startDate, a.endDate),
                client: a.clientName,
              })}
            </strong>
          </p>
          <p id="cancel-effect">{t('cancel.effect')}</p>
          <ConfirmActions
            busy={cancelling}
            className="button button-danger"
            label={t('cancel.confirm')}
            busyLabel={t('cancel.cancelling')}
            onConfirm={() => send({ type: 'cancel.confirm' })}
            backLabel={t('cancel.abort')}
            onBack={() => send({ type: 'cancel.abort' })}
          />
        </div>
      ) : (
        <div className="page-actions">
          {live ? (
            <Link href={`/appointments/${a.id}/edit`} className="button">
              {t('appointment.edit')}
            </Link>
          ) : null}
          {state.hasTag('offersInvites') ? (
            <EventButton state={state} send={send} event={{ type: 'invites.resend' }}>
              {t('appointment.resend')}
            </EventButton>
          ) : null}
          {state.hasTag('offersNoShow') ? (
            <EventButton state={state} send={send} event={{ type: 'noShow.toggle' }}>
              {a.noShow ? t('appointment.unmarkNoShow') : t('appointment.markNoShow')}
            </EventButton>
          ) : null}
          {state.hasTag('offersCancel') ? (
            <EventButton
              state={state}
              send={send}
              event={{ type: 'cancel.request' }}
              className="button button-danger"
            >
              {t('appointment.cancel')}
            </EventButton>
          ) : null}
        </div>
      )}

      {mode === 'detail' ? (
        <SummarySection
          appointment={a}
          clinical={detail.clinical}
          canWrite={clinicalWriter}
          held={
            live && !a.noShow && !a.isProvisional && Date.parse(a.startDate) <= state.context.now()
          }
        />
      ) : null}
      <section className="detail-section" aria-labelledby="communications-heading">
        <h2 id="communications-heading">{t('communications.title')}</h2>
        <Communications items={detail.communications} />
      </section>
      {detail.events !== null ? (
        <section className="detail-section" aria-labelledby="events-heading">
          <h2 id="events-heading">{t('events.title')}</h2>
          <BusinessEvents items={detail.events} />
        </section>
      ) : null}
    </DetailFrame>
  );
}

/** Messages about an appointment or to a client, newest first. */
export function Communications({ items }: { items: readonly Communication[] | null }) {
  const { t } = useTranslation('staff');
  if (items === null)
    return <p className="notice notice-error">{t('communications.unavailable')}</p>;
  if (items.length === 0) return <p>{t('communications.empty')}</p>;
  return (
    <Table columns={COMMUNICATION_COLUMNS} rows={items} caption={t('communications.caption')} />
  );
}

const COMMUNICATION_COLUMNS: readonly Column<Communication>[] = [
  {
    header: tKey('staff:communications.columns.createdAt'),
    cell: (c) => formatDateTime(c.createdAt),
  },
  { header: tKey('staff:communications.columns.channel'), cell: (c, t) => t(CHANNELS[c.channel]) },
  { header: tKey('staff:communications.columns.recipient'), cell: (c) => c.recipient },
  {
    header: tKey('staff:communications.columns.subject'),
    primary: true,
    cell: (c, t) => messageTitle(c, t),
  },
  {
    header: tKey('staff:communications.columns.status'),
    cell: (c, t) => (
      <>
        {t(COMMUNICATION_STATUS[c.status])}
        {c.sentAt ? ` (${formatDateTime(c.sentAt)})` : ''}
      </>
    ),
  },
];

function BusinessEvents({ items }: { items: readonly BusinessEvent[] }) {
  const { t } = useTranslation('staff');
  if (items.length === 0) return <p>{t('events.empty')}</p>;
  return (
    <ul>
      {items.map((e) => (
        <li key={e.id}>
          {formatDateTime(e.occurredAt)}: {eventActionLabel(t, e.action)}
          {e.actor ? ` – ${e.actor.email}` : ''}
        </li>
      ))}
    </ul>
  );
}

/**
 * The coach's way into the video meeting: its page always, and the join link itself while the
 * server opens the room (shared/meeting-window.ts; read when the page renders).
 */
function MeetingLinks({
  meetingCode,
  appointment,
}: {
  meetingCode: string;
  appointment: { startDate: string; endDate: string; cancelledAt: string | null };
}) {
  const { t } = useTranslation('staff');
  const path = `/coach/meeting/${encodeURIComponent(meetingCode)}`;
  // Read once when the page opens; the meeting's own page follows the clock.
  const [nowMs] = useState(Date.now);
  return (
    <span className="meeting-links">
      {' '}
      <Link href={path}>{t('appointment.openMeeting')}</Link>
      {roomIsOpen(appointment, nowMs) && (
        <>
          {' · '}
          <Link href={`${path}/join`} className="button button-primary">
            {t('appointment.joinMeeting')}
          </Link>
        </>
      )}
    </span>
  );
}
