import { useTranslation } from 'react-i18next';
import { useSessionStatus } from '../session-status';
import { AuthWidget } from './AuthWidget';
import { CalendarConnectionsSection } from './CalendarConnectionsSection';
import { CalendarFeedSection } from './CalendarFeedSection';

/**
 * `/profile`: the profile flow (without a valid session the error screen shows); a coach also
 * finds the calendar subscription and their connected calendars here.
 */
export default function ProfilePage() {
  const { t } = useTranslation('auth');
  const status = useSessionStatus();
  const coachId = status.kind === 'signedIn' ? status.session.coach?.id : undefined;
  return (
    <article className="auth-page">
      <h1>{t('pages.profile')}</h1>
      <AuthWidget flow="profile" />
      {coachId ? <CalendarFeedSection key={coachId} coachId={coachId} /> : null}
      {coachId ? <CalendarConnectionsSection key={coachId} coachId={coachId} /> : null}
    </article>
  );
}
