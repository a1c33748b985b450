import { helpVideoUrls } from '../../shared/help-videos';
import { tKey } from '../i18n/keys';

/**
 * Build-time settings of the web app (Vite `VITE_*` variables; the specification's list of calls:
 * "the backend base URL is configured at build time", as are the video and calendar services).
 */
export interface HelpVideo {
  id: string;
  /** i18n key of the German title (namespace `shell`). */
  titleKey: string;
  /** null: no video for this topic (the help page shows its written guide only). */
  url: string | null;
}

const env = import.meta.env as Record<string, string | undefined>;

const HELP_VIDEO_TITLES = [
  tKey('shell:help.videos.signIn'),
  tKey('shell:help.videos.appointments'),
  tKey('shell:help.videos.clients'),
  tKey('shell:help.videos.meetings'),
] as const;

/** The four help topics, each with its video from `VITE_HELP_VIDEO_URLS` where one is configured. */
export function helpVideos(configured: string | undefined = env.VITE_HELP_VIDEO_URLS): HelpVideo[] {
  const urls = helpVideoUrls(configured);
  return HELP_VIDEO_TITLES.map((titleKey, i) => ({
    id: `video-${i + 1}`,
    titleKey,
    url: urls[i] ?? null,
  }));
}

/** `VITE_ANALYTICS_URL`: the external analytics link of the menu; unset hides it. */
export const analyticsUrl = (): string | undefined => env.VITE_ANALYTICS_URL || undefined;

/**
 * The legal pages every page's footer links to (German law asks for both on every page): pages
 * of the app, filled from the practice settings.
 */
export const legalLinks = (): { imprint: string; privacy: string } => ({
  imprint: '/impressum',
  privacy: '/datenschutz',
});
