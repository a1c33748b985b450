import i18next, { type i18n as I18n, type InitOptions, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LocalesBackend, type LocaleFetch, type LocalesBackendOptions } from './backend';
import { LanguageDetector, type DetectionOptions } from './detector';

export type { LocaleFetch, LocaleResponse } from './backend';

/** Languages we ship. German is complete; English mirrors every German key (tests check it). */
export const SUPPORTED_LANGUAGES = ['de', 'en'] as const;
export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];

/** Namespaces loaded at start. Feature namespaces may be loaded later with useTranslation('ns'). */
export const DEFAULT_NAMESPACES = ['translation', 'common'] as const;

/** Where the server (and the Vite dev proxy) serves `src/i18n/locales`. */
export const LOCALES_LOAD_PATH = '/locales/{{lng}}/{{ns}}.json';

/** The specification's constants and limits: detection order and cache. */
export const detectionOptions: DetectionOptions = {
  order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
  lookupQuerystring: 'lng',
  lookupCookie: 'i18next',
  lookupLocalStorage: 'i18nextLng',
  lookupSessionStorage: 'i18nextLng',
  caches: ['localStorage'],
};

/**
 * The specification's error catalogue and constants. Retries are done by i18next's backend
 * connector: a read that fails with a retryable error is tried again after 350 ms, then 700, 1400,
 * 2800 and 5600 ms (5 retries). Our backend (./backend.ts) marks 5xx, "no status" and network
 * errors (fetch rejected) as retryable and 4xx as final, which is exactly the rule of the
 * specification. `initAsync: false`: detection and the first reads start inside `init()`, not a
 * task later, so src/main.tsx can ask for the page's namespaces right away.
 */
export const baseInitOptions = {
  fallbackLng: 'de',
  supportedLngs: SUPPORTED_LANGUAGES,
  nonExplicitSupportedLngs: true,
  load: 'languageOnly',
  ns: DEFAULT_NAMESPACES,
  defaultNS: 'translation',
  interpolation: { escapeValue: false },
  maxParallelReads: 10,
  maxRetries: 5,
  retryTimeout: 350,
  saveMissing: false,
  returnEmptyString: false,
  react: { useSuspense: true },
  initAsync: false,
} satisfies InitOptions;

export interface CreateI18nOptions {
  /** Replaces `fetch(url)` of the translation backend (tests pass a fake). */
  fetch?: LocaleFetch;
  /** Bundled resources instead of the HTTP backend (unit tests load the JSON files directly). */
  resources?: Resource;
  /** Fixed language; skips detection. */
  lng?: string;
  /** Debug logging; defaults to on in development builds only. */
  debug?: boolean;
  /** Namespaces to load at start; defaults to DEFAULT_NAMESPACES. */
  ns?: readonly string[];
}

export interface I18nSetup {
  i18n: I18n;
  /** Resolves when the start namespaces are loaded (or finally failed; failures are logged). */
  ready: Promise<unknown>;
}

/** Creates and initialises a fresh i18next instance; the app calls it once in src/app. */
export function createI18n(options: CreateI18nOptions = {}): I18nSetup {
  const i18n = i18next.createInstance();
  const useBackend = options.resources === undefined;
  if (useBackend) i18n.use(LocalesBackend);
  if (options.lng === undefined) i18n.use(LanguageDetector);
  i18n.use(initReactI18next);

  if (typeof document !== 'undefined') {
    i18n.on('languageChanged', () => {
      document.documentElement.lang = i18n.resolvedLanguage ?? i18n.language;
    });
  }

  const backend: LocalesBackendOptions = { loadPath: LOCALES_LOAD_PATH };
  if (options.fetch) backend.fetch = options.fetch;

  const ready = i18n.init({
    ...baseInitOptions,
    debug: options.debug ?? import.meta.env.DEV,
    ns: options.ns ?? DEFAULT_NAMESPACES,
    ...(options.lng === undefined ? { detection: detectionOptions } : { lng: options.lng }),
    ...(useBackend ? { backend } : { resources: options.resources }),
  });
  return { i18n, ready };
}
