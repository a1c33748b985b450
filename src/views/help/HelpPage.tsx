import { useTranslation } from 'react-i18next';
import { helpVideos } from '../../lib/config';

/** Captions next to each video: the same address with `.vtt` instead of the file extension. */
const captionsUrl = (url: string) => url.replace(/\.[a-z0-9]+(?=$|[?#])/i, '.vtt');

/** `/help`: the four tutorial videos (addresses from VITE_HELP_VIDEO_URLS). */
export default function HelpPage() {
  const { t } = useTranslation('shell');
  const videos = helpVideos();
  return (
    <article className="help-page">
      <h1>{t('help.title')}</h1>
      <p className="lead">{t('help.intro')}</p>
      <ol className="help-videos">
        {videos.map((video) => (
          <li key={video.id} className="help-video">
            <h2 id={`${video.id}-title`}>{t(video.titleKey)}</h2>
            {/* Captions from another host load only in CORS mode (docs/deploy.md: help videos). */}
            <video
              controls
              preload="none"
              crossOrigin="anonymous"
              src={video.url}
              aria-labelledby={`${video.id}-title`}
            >
              <track
                kind="captions"
                srcLang="de"
                src={captionsUrl(video.url)}
                label={t('help.captions')}
                default
              />
            </video>
            <a href={video.url} target="_blank" rel="noopener noreferrer">
              {t('help.openVideo', { title: t(video.titleKey) })}
            </a>
          </li>
        ))}
      </ol>
    </article>
  );
}
