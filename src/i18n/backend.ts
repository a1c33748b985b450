import type { BackendModule, ReadCallback } from 'i18next';

/** What the backend needs of a response (a `fetch` Response has it). */
export interface LocaleResponse {
  status: number;
  text(): Promise<string>;
}

/** Loads one URL; rejects on a network error. Defaults to `fetch(url)`. */
export type LocaleFetch = (url: string) => Promise<LocaleResponse>;

export interface LocalesBackendOptions {
  /** `{{lng}}` and `{{ns}}` are replaced, e.g. `/locales/{{lng}}/{{ns}}.json`. */
  loadPath: string;
  fetch?: LocaleFetch;
}

/**
 * The translation files over HTTP (the specification's constants and limits), in place of
 * i18next-http-backend (2.5 KB gzip on every page, bench/web.ts). A plain `fetch(url)`: same-origin
 * credentials and no extra headers, so the `<link rel="preload" as="fetch"
 * crossorigin="anonymous">` of index.html and of the server's route hints is reused, not fetched
 * twice.
 *
 * Retries are i18next's (`maxRetries`, `retryTimeout` in src/i18n/index.ts): a read that
 * answers `callback(error, true)` is tried again after 350 ms, doubling. Retryable are 5xx, an
 * answer without status and network errors (fetch rejected); a 4xx or a file that is not JSON
 * is final.
 */
export class LocalesBackend implements BackendModule<LocalesBackendOptions> {
  static type = 'backend' as const;
  type = 'backend' as const;
  callbackApi = true;
  private loadPath = '';
  private load: LocaleFetch = (url) => fetch(url);

  /** i18next calls it with the `backend` init option. */
  init(_services: unknown, options: LocalesBackendOptions) {
    this.loadPath = options.loadPath;
    if (options.fetch) this.load = options.fetch;
  }

  read(language: string, namespace: string, callback: ReadCallback) {
    const url = this.loadPath.replace('{{lng}}', language).replace('{{ns}}', namespace);
    const failed = (why: string, retry: boolean) =>
      callback(`failed loading ${url}: ${why}`, retry);
    let loading: Promise<LocaleResponse>;
    try {
      loading = this.load(url);
    } catch (error) {
      failed(String(error), true);
      return;
    }
    loading.then(
      async (response) => {
        const { status } = response;
        if (!status || status >= 500) return failed(`status code ${status}`, true);
        if (status >= 400) return failed(`status code ${status}`, false);
        let body: string;
        try {
          body = await response.text();
        } catch (error) {
          return failed(`body not received (${String(error)})`, true);
        }
        let data: unknown;
        try {
          data = JSON.parse(body);
        } catch (error) {
          return failed(`not JSON (${String(error)})`, false);
        }
        callback(null, data as Parameters<ReadCallback>[1]);
      },
      (error: unknown) => failed(error instanceof Error ? error.message : String(error), true),
    );
  }
}
