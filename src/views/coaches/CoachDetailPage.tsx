import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import type { components } from '../../../shared/contract/product';
import { coachName } from '../../forms/coach-staff-form';
import { recordOf } from '../../machines/record-detail.machine';
import { formatDateTime } from '../staff/format';
import { DetailFrame, DetailPending } from '../record-detail/DetailFrame';
import { ActiveQuestion, ActiveToggleButton } from './ConfirmActionPanel';
import { wireCoachActive, wireCoachDetail } from '../../machines/wiring/coach-detail';
import { useRouteActor } from '../route-actor';

type Coach = components['schemas']['Coach'];

/** `/coaches/{coachId}`. */
export default function CoachDetailPage() {
  const { coachId } = useParams<{ coachId: string }>();
  return <CoachDetail key={coachId} id={coachId} />;
}

function CoachDetail({ id }: { id: string }) {
  const { t } = useTranslation('staff');
  const detailRef = useRouteActor(wireCoachDetail, { input: { id } });
  const activeRef = useRouteActor((effects) =>
    wireCoachActive(effects, () => detailRef.send({ type: 'detail.reload' })),
  );
  const state = useSelector(detailRef, (s) => s);
  const coach = recordOf<Coach>(state.context);
  const busy = state.hasTag('busy');

  if (!coach) {
    return (
      <DetailPending
        title={t('coach.title')}
        state={state}
        retry={() => detailRef.send({ type: 'detail.retry' })}
        backHref="/coaches"
        backLabel={t('coach.backToList')}
      />
    );
  }

  const name = coachName(coach);
  const wording = {
    deactivate: t('coach.deactivate'),
    activate: t('coach.reactivate'),
    deactivateQuestion: t('coach.deactivateQuestion', { name }),
    activateQuestion: t('coach.reactivateQuestion', { name }),
    deactivateConfirm: t('coach.deactivateConfirm'),
    activateConfirm: t('coach.reactivateConfirm'),
  };
  const accountHref = `/users/new?${new URLSearchParams({ coachId: coach.id, email: coach.email }).toString()}`;
  return (
    <DetailFrame title={name} busy={busy} progress={t('list.loading')}>
      <div className="page-actions">
        <Link href={`/coaches/${coach.id}/edit`} className="button button-primary">
          {t('coach.edit')}
        </Link>
        <Link href={`/appointments?coach=${coach.id}`} className="button">
          {t('coach.appointments')}
        </Link>
        <Link href={`/events?coach=${coach.id}`} className="button">
          {t('coach.events')}
        </Link>
        <ActiveToggleButton actorRef={activeRef} record={coach} wording={wording} />
      </div>
      <ActiveQuestion actorRef={activeRef} wording={wording} />
      <section className="detail-section" aria-labelledby="coach-details">
        <h2 id="coach-details">{t('coach.title')}</h2>
        <dl className="details">
          <dt>{t('coach.status')}</dt>
          <dd>{coach.active ? t('coaches.active') : t('coaches.inactive')}</dd>
          <dt>{t('coach.email')}</dt>
          <dd>{coach.email}</dd>
          <dt>{t('coach.telephone')}</dt>
          <dd>{coach.telephone ?? '–'}</dd>
          <dt>{t('coach.initial')}</dt>
          <dd>{coach.takesInitialAppointments ? t('coach.initialYes') : t('coach.initialNo')}</dd>
          <dt>{t('coach.createdAt')}</dt>
          <dd>{formatDateTime(coach.createdAt)}</dd>
          <dt>{t('coach.updatedAt')}</dt>
          <dd>{formatDateTime(coach.updatedAt)}</dd>
        </dl>
      </section>
      <section className="detail-section" aria-labelledby="coach-account">
        <h2 id="coach-account">{t('coach.accountTitle')}</h2>
        <p>{t('coach.accountHint')}</p>
        <Link href={accountHref} className="button">
          {t('coach.createAccount')}
        </Link>
      </section>
      <p>
        <Link href="/coaches">{t('coach.backToList')}</Link>
      </p>
    </DetailFrame>
  );
}
