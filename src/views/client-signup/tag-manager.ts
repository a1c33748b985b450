/**
 * The tag-manager script (the specification's constants and limits): only on the client pages, and
 * only on the production host. Both come from the build (`VITE_TAG_MANAGER_ID`,
 * `VITE_PRODUCTION_HOST`); a development build never loads it, and neither does any host other than
 * the configured one (tests run on localhost).
 */
const env = import.meta.env as Record<string, string | boolean | undefined>;

export interface TagManagerEnv {
  production: boolean;
  host: string;
  productionHost: string | undefined;
  id: string | undefined;
}

/** The container id to load, or null: the whole rule in one pure function. */
export function tagManagerId(e: TagManagerEnv): string | null {
  if (!e.production || !e.id || !e.productionHost) return null;
  if (!/^GTM-[A-Z0-9]{4,12}$/.test(e.id)) return null;
  return e.host.toLowerCase() === e.productionHost.toLowerCase() ? e.id : null;
}

export function tagManagerSettings(): { id: string } | null {
  if (typeof window === 'undefined') return null;
  const id = tagManagerId({
    production: env.PROD === true,
    host: window.location.hostname,
    productionHost:
      typeof env.VITE_PRODUCTION_HOST === 'string' ? env.VITE_PRODUCTION_HOST : undefined,
    id: typeof env.VITE_TAG_MANAGER_ID === 'string' ? env.VITE_TAG_MANAGER_ID : undefined,
  });
  return id ? { id } : null;
}

const SCRIPT_ID = 'tag-manager';

/** Adds the container's script once (the data layer first, as the vendor's snippet does). */
export function loadTagManager(id: string, doc: Document = document) {
  if (doc.getElementById(SCRIPT_ID)) return;
  const w = doc.defaultView as (Window & { dataLayer?: unknown[] }) | null;
  if (w) {
    w.dataLayer = w.dataLayer ?? [];
    w.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  }
  const script = doc.createElement('script');
  script.id = SCRIPT_ID;
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(id)}`;
  doc.head.appendChild(script);
}
