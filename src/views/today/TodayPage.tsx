import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { appointmentPhase } from '../../../shared/appointment-phase';
import { joiningWindowMs, roomIsOpen } from '../../../shared/meeting-window';
import type { Appointment } from '../../machines/overview.machine';
import { wireToday } from '../../machines/wiring/overview';
import { APPOINTMENT_TYPE_LABELS } from '../appointments-list/parts';
import { OverviewPage } from '../overview/OverviewCards';
import { useRouteMachine } from '../route-actor';
import { useSessionPermission } from '../session-status';
import { formatDate, formatTime } from '../staff/format';
import '../staff/staff.css';
import '../overview/overview.css';

const joinPath = (a: Appointment) =>
  `/coach/meeting/${encodeURIComponent(a.meetingCodeCoach)}/join`;

/**
 * `/today` ("Heute", every staff role): where staff land after signing in. The day's
 * appointments with the join link while the room is open (coaches), then the counts of what
 * waits for them.
 */
export default function TodayPage() {
  const { t } = useTranslation(['shell', 'staff']);
  const [state, send] = useRouteMachine(wireToday);
  const coach = useSessionPermission('holdAppointments');
  const { appointments, nowMs } = state.context;
  const next = appointments.find((a) => appointmentPhase(a, nowMs) !== 'ended');

  return (
    <OverviewPage
      className="today-page"
      title={t('today.title')}
      lead={<p className="lead">{formatDate(new Date(nowMs).toISOString())}</p>}
      state={state}
      send={send}
    >
      <section aria-labelledby="today-appointments">
        <h2 id="today-appointments">
          {coach ? t('today.appointments') : t('today.allAppointments')}
        </h2>
        {appointments.length === 0 ? (
          <p>{t('today.none')}</p>
        ) : (
          <ul className="today-appointments">
            {appointments.map((a) => {
              const phase = appointmentPhase(a, nowMs);
              const isNext = a === next;
              const open = coach && roomIsOpen(a, nowMs);
              return (
                <li
                  key={a.id}
                  data-testid="today-appointment"
                  data-phase={phase}
                  data-next={isNext || undefined}
                >
                  <div className="today-appointment-when">
                    {formatTime(a.startDate)}–{formatTime(a.endDate)}
                  </div>
                  <div className="today-appointment-what">
                    <strong>{a.clientName}</strong> ·{' '}
                    {t(APPOINTMENT_TYPE_LABELS[a.appointmentType])}
                    {!coach && (
                      <>
                        {' '}
                        · {a.coach.firstName} {a.coach.lastName}
                      </>
                    )}
                    {isNext && <span className="badge">{t('today.next')}</span>}
                    {phase === 'underway' && <span className="badge">{t('today.underway')}</span>}
                    {phase === 'ended' && <span className="badge">{t('today.past')}</span>}
                  </div>
                  <div className="form-actions">
                    {open && (
                      <Link
                        href={joinPath(a)}
                        className="button button-primary"
                        aria-label={t('today.joinWith', { name: a.clientName })}
                      >
                        {t('today.join')}
                      </Link>
                    )}
                    {coach && isNext && !open && (
                      <span className="today-opens">
                        {t('today.opensAt', {
                          time: formatTime(new Date(joiningWindowMs(a).fromMs).toISOString()),
                        })}
                      </span>
                    )}
                    <Link
                      href={`/appointments/${a.id}`}
                      className="button"
                      aria-label={t('today.detailsOf', { name: a.clientName })}
                    >
                      {t('today.details')}
                    </Link>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </OverviewPage>
  );
}
