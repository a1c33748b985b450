/** Default addresses of the four tutorial videos; a deployment sets VITE_HELP_VIDEO_URLS. */
export const DEFAULT_HELP_VIDEO_URLS = [
  'https://videos.sprechstunde.example/hilfe/01-anmelden-und-aktivieren.mp4',
  'https://videos.sprechstunde.example/hilfe/02-termine-und-kalender.mp4',
  'https://videos.sprechstunde.example/hilfe/03-klientinnen-betreuen.mp4',
  'https://videos.sprechstunde.example/hilfe/04-videotermine.mp4',
] as const;

/**
 * `VITE_HELP_VIDEO_URLS` (four comma-separated URLs, in the order of the titles) with the
 * defaults for those not given: what the help page plays and the server's CSP allows.
 */
export function helpVideoUrls(configured: string | undefined): string[] {
  const given = (configured ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  return DEFAULT_HELP_VIDEO_URLS.map((fallback, i) => given[i] ?? fallback);
}
