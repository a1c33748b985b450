import { useTranslation } from 'react-i18next';
import './meeting.css';

/** `/meetingfinished` (public): after the client left the video meeting. */
export default function ClientMeetingFinishedPage() {
  const { t } = useTranslation('meeting');
  return (
    <article className="meeting-page">
      <h1>{t('title.finished')}</h1>
      <div className="notice notice-success" role="status">
        <p>{t('finished.clientText')}</p>
      </div>
    </article>
  );
}
