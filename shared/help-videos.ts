/**
 * `VITE_HELP_VIDEO_URLS`: up to four comma-separated URLs, in the order of the help page's
 * topics (an empty place leaves that topic without a video). Unset: no videos at all, the help
 * page shows its written guides only, and the server's CSP allows no other media host. There is
 * no default host: a placeholder would only show empty players.
 */
export function helpVideoUrls(configured: string | undefined): Array<string | null> {
  const given = (configured ?? '').split(',').map((u) => u.trim());
  return [0, 1, 2, 3].map((i) => given[i] || null);
}
