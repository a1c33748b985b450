import type { Config } from '../config';
import { contentSecurityPolicy } from '../http/security-headers';

/** The client sign-up pages: the only pages the tag manager may run on. */
export const TAG_MANAGER_PAGES = /^\/client-signup(\/|$)/;

/** The `<meta>` the web app reads the container's script from (src/lib/tag-manager.ts). */
export const TAG_MANAGER_META = 'tag-manager-script';

export interface TagManagerPage {
  /** The page's CSP: the app's own, plus the script's origin for script, image and fetch. */
  csp: string;
  /** index.html with the meta naming the script. */
  html(page: string): string;
}

const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * Where and how the tag manager runs: with TAG_MANAGER_ID set, on the sign-up pages of
 * PUBLIC_URL's host (not on another name of the same server, not in development through
 * Vite). The page only learns the script's address here; it loads it after the visitor's
 * "Akzeptieren" (src/machines/consent.machine.ts). Everything else keeps the strict CSP.
 */
export function tagManagerPages(config: Config) {
  if (!config.TAG_MANAGER_ID) return () => null;
  const script = new URL(config.TAG_MANAGER_SCRIPT_URL);
  script.searchParams.set('id', config.TAG_MANAGER_ID);
  const origin = script.origin;
  const host = new URL(config.PUBLIC_URL).hostname.toLowerCase();
  const page: TagManagerPage = {
    csp: contentSecurityPolicy(config, { script: [origin], img: [origin], connect: [origin] }),
    html: (html) =>
      html.replace(
        '</head>',
        `  <meta name="${TAG_MANAGER_META}" content="${attr(script.href)}">\n  </head>`,
      ),
  };
  return (pathname: string, hostname: string): TagManagerPage | null =>
    TAG_MANAGER_PAGES.test(pathname) && hostname.toLowerCase() === host ? page : null;
}
