import { tKey } from '../i18n/keys';

/**
 * Build-time settings of the web app (Vite `VITE_*` variables; specification section 7: "the
 * backend base URL is configured at build time", as are the video and calendar services).
 */
export interface HelpVideo {
  id: string;
  /** i18n key of the German title (namespace `shell`). */
  titleKey: string;
  url: string;
}

const env = import.meta.env as Record<string, string | undefined>;

/** Default addresses of the four tutorial videos; a deployment sets VITE_HELP_VIDEO_URLS. */
export const DEFAULT_HELP_VIDEO_URLS = [
  'https://videos.sprechstunde.example/hilfe/01-anmelden-und-aktivieren.mp4',
  'https://videos.sprechstunde.example/hilfe/02-termine-und-kalender.mp4',
  'https://videos.sprechstunde.example/hilfe/03-klientinnen-betreuen.mp4',
  'https://videos.sprechstunde.example/hilfe/04-videotermine.mp4',
] as const;

const HELP_VIDEO_TITLES = [
  tKey('shell:help.videos.signIn'),
  tKey('shell:help.videos.appointments'),
  tKey('shell:help.videos.clients'),
  tKey('shell:help.videos.meetings'),
] as const;

/** `VITE_HELP_VIDEO_URLS`: four comma-separated URLs, in the order of the titles. */
export function helpVideos(configured: string | undefined = env.VITE_HELP_VIDEO_URLS): HelpVideo[] {
  const given = (configured ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  return HELP_VIDEO_TITLES.map((titleKey, i) => ({
    id: `video-${i + 1}`,
    titleKey,
    url: given[i] ?? DEFAULT_HELP_VIDEO_URLS[i]!,
  }));
}

/** `VITE_ANALYTICS_URL`: the external analytics link of the menu; unset hides it. */
export const analyticsUrl = (): string | undefined => env.VITE_ANALYTICS_URL || undefined;
