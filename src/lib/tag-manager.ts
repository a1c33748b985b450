/**
 * The tag manager of the client sign-up pages. The server names its script in a `<meta>` of
 * exactly those pages on the production host, and allows it in their CSP
 * (server/web/tag-manager.ts); the script itself loads only after the visitor consents
 * (src/machines/consent.machine.ts).
 */
const META = 'tag-manager-script';

/** Pages the tag manager may run on (the server's list). */
export const TAG_MANAGER_PAGES = /^\/client-signup(\/|$)/;

/** The script's address the server named for this page, or null: no tag manager here. */
export function tagManagerScript(doc: Document = document): string | null {
  const content = doc.querySelector(`meta[name="${META}"]`)?.getAttribute('content');
  return content && /^https?:\/\//.test(content) ? content : null;
}

const SCRIPT_ID = 'tag-manager';

/** Adds the container's script once (the data layer first, as the vendor's snippet does). */
export function loadTagManager(src: string, doc: Document = document) {
  if (doc.getElementById(SCRIPT_ID)) return;
  const w = doc.defaultView as (Window & { dataLayer?: unknown[] }) | null;
  if (w) {
    w.dataLayer = w.dataLayer ?? [];
    w.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  }
  const script = doc.createElement('script');
  script.id = SCRIPT_ID;
  script.async = true;
  script.src = src;
  doc.head.appendChild(script);
}
