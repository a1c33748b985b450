import { useTranslation } from 'react-i18next';
import { tKey } from '../../i18n/keys';
import { helpVideos } from '../../lib/config';

/** Captions next to each video: the same address with `.vtt` instead of the file extension. */
const captionsUrl = (url: string) => url.replace(/\.[a-z0-9]+(?=$|[?#])/i, '.vtt');

/** The written guide of each topic, in the order of the topics (src/lib/config.ts). */
const GUIDES: Record<string, readonly string[]> = {
  'video-1': [
    tKey('shell:help.guides.signIn.step1'),
    tKey('shell:help.guides.signIn.step2'),
    tKey('shell:help.guides.signIn.step3'),
    tKey('shell:help.guides.signIn.step4'),
  ],
  'video-2': [
    tKey('shell:help.guides.appointments.step1'),
    tKey('shell:help.guides.appointments.step2'),
    tKey('shell:help.guides.appointments.step3'),
    tKey('shell:help.guides.appointments.step4'),
  ],
  'video-3': [
    tKey('shell:help.guides.clients.step1'),
    tKey('shell:help.guides.clients.step2'),
    tKey('shell:help.guides.clients.step3'),
    tKey('shell:help.guides.clients.step4'),
  ],
  'video-4': [
    tKey('shell:help.guides.meetings.step1'),
    tKey('shell:help.guides.meetings.step2'),
    tKey('shell:help.guides.meetings.step3'),
    tKey('shell:help.guides.meetings.step4'),
  ],
};

/**
 * `/help`: four topics, each with its written guide; a topic whose video is configured
 * (VITE_HELP_VIDEO_URLS) plays it above the guide. Without a video host: guides only, no
 * empty players.
 */
export default function HelpPage() {
  const { t } = useTranslation('shell');
  const topics = helpVideos();
  return (
    <article className="help-page">
      <h1>{t('help.title')}</h1>
      <p className="lead">{topics.some((v) => v.url) ? t('help.introVideos') : t('help.intro')}</p>
      <ol className="help-videos">
        {topics.map((topic) => (
          <li key={topic.id} className="help-video">
            <h2 id={`${topic.id}-title`}>{t(topic.titleKey)}</h2>
            {topic.url ? (
              <>
                {/* Captions from another host load only in CORS mode (docs/deploy.md: help videos). */}
                <video
                  controls
                  preload="none"
                  crossOrigin="anonymous"
                  src={topic.url}
                  aria-labelledby={`${topic.id}-title`}
                >
                  <track
                    kind="captions"
                    srcLang="de"
                    src={captionsUrl(topic.url)}
                    label={t('help.captions')}
                    default
                  />
                </video>
                <a href={topic.url} target="_blank" rel="noopener noreferrer">
                  {t('help.openVideo', { title: t(topic.titleKey) })}
                </a>
              </>
            ) : null}
            <ol className="help-guide" aria-labelledby={`${topic.id}-title`}>
              {(GUIDES[topic.id] ?? []).map((key) => (
                <li key={key}>{t(key)}</li>
              ))}
            </ol>
          </li>
        ))}
      </ol>
    </article>
  );
}
