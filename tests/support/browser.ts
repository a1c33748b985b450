import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Download,
  type Page,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { launchChromium } from './chromium';

/**
 * Real Chromium for end-to-end tests (architecture rule 8): Debian's `chromium` package,
 * driven by playwright-core. One browser for the whole run, started by the e2e global setup
 * (a launch per file cost seconds each on a loaded machine), a fresh context (cookies, storage)
 * per test; a file run without that setup launches its own.
 */

/**
 * The run's shared browser (global setup), else one of this file's own. `close()` on the shared
 * one only disconnects this file.
 */
export function openBrowser(): Promise<Browser> {
  const endpoint = inject('browserEndpoint');
  return endpoint ? chromium.connect(endpoint) : launchChromium();
}

/** A German user in Germany, unless a test says otherwise. */
export const DEFAULT_CONTEXT: BrowserContextOptions = {
  locale: 'de-DE',
  timezoneId: 'Europe/Berlin',
  viewport: { width: 1400, height: 900 },
};

export interface BrowserFixture {
  readonly baseUrl: string;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Uncaught exceptions in the page during the current test. */
  readonly pageErrors: Error[];
  /** `console.error` messages of the page during the current test. */
  readonly consoleErrors: string[];
  /** Opens another context (e.g. a second user) that is closed after the test. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
}

/**
 * Call once at the top of a test file:
 *   const b = useBrowser();
 *   it('…', async () => { await b.page.goto('/'); });
 * Relative URLs resolve against the app under test.
 */
export function useBrowser(contextOptions: BrowserContextOptions = {}): BrowserFixture {
  const baseUrl = inject('baseUrl');
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let extraContexts: BrowserContext[] = [];
  let pageErrors: Error[] = [];
  let consoleErrors: string[] = [];

  const options = (extra: BrowserContextOptions = {}): BrowserContextOptions => ({
    ...DEFAULT_CONTEXT,
    ...contextOptions,
    ...extra,
    baseURL: baseUrl,
  });

  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => {
    // On the shared browser this only disconnects; this file's contexts are closed already.
    await browser?.close();
  });
  beforeEach(async () => {
    pageErrors = [];
    consoleErrors = [];
    context = await browser!.newContext(options());
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  });
  afterEach(async () => {
    await Promise.all([context, ...extraContexts].map((c) => c?.close()));
    context = undefined;
    page = undefined;
    extraContexts = [];
  });

  const required = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useBrowser: ${what} exists only inside a test`);
    return value;
  };

  return {
    baseUrl,
    get browser() {
      return required(browser, 'browser');
    },
    get context() {
      return required(context, 'context');
    },
    get page() {
      return required(page, 'page');
    },
    get pageErrors() {
      return pageErrors;
    },
    get consoleErrors() {
      return consoleErrors;
    },
    async newContext(extra) {
      const c = await required(browser, 'browser').newContext(options(extra));
      extraContexts.push(c);
      return c;
    },
  };
}

/**
 * A finished download's bytes. The browser is shared over a connection, so the file lives on the
 * browser's side and `download.path()` is not available; the stream is.
 */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
