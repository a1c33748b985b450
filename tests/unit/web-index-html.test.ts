import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchesRoute } from '../../shared/route-match';
import { createIndexHtml, startLanguage } from '../../server/web/static';

const INDEX = `<!doctype html><html><head><script type="module" src="/assets/index.js"></script></head><body></body></html>`;

function webDir(hints?: unknown) {
  const dir = mkdtempSync(path.join(tmpdir(), 'web-'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  if (hints !== undefined) {
    mkdirSync(path.join(dir, '.vite'));
    writeFileSync(path.join(dir, '.vite/route-hints.json'), JSON.stringify(hints));
  }
  return dir;
}

describe('index.html with the page hints of the route (server/web/static.ts)', () => {
  const hints = [
    {
      pattern: '/login',
      entry: ['/assets/early-login.js'],
      js: ['/assets/LoginPage.js', '/assets/screens.js'],
      css: [],
      ns: ['auth'],
    },
    { pattern: '/clients/new', js: ['/assets/ClientNew.js'], css: [], ns: ['staff'] },
    {
      pattern: '/clients/:clientId',
      js: ['/assets/ClientDetail.js'],
      css: ['/assets/list.css'],
      ns: ['staff'],
    },
  ];

  it("names the page's code, styles and German translations in the head", () => {
    const html = createIndexHtml(webDir(hints));
    const login = html('/login');
    expect(login).toContain('<link rel="modulepreload" crossorigin href="/assets/LoginPage.js">');
    expect(login).toContain('<link rel="modulepreload" crossorigin href="/assets/screens.js">');
    expect(login).toContain(
      '<link rel="preload" href="/locales/de/auth.json" as="fetch" crossorigin="anonymous">',
    );
    expect(login.indexOf('LoginPage.js')).toBeLessThan(login.indexOf('</head>'));
    expect(html('/clients/42/')).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/list.css">',
    );
    // The first matching route wins, as in the app's route table.
    expect(html('/clients/new')).toContain('/assets/ClientNew.js');
    expect(html('/clients/new')).not.toContain('/assets/ClientDetail.js');
  });

  it("runs a page's own entry script first, before the app's start script", () => {
    const login = createIndexHtml(webDir(hints))('/login');
    const tag = '<script type="module" async crossorigin src="/assets/early-login.js"></script>';
    expect(login).toContain(tag);
    expect(login.indexOf(tag)).toBeLessThan(login.indexOf('/assets/index.js'));
    expect(createIndexHtml(webDir(hints))('/clients/new')).not.toContain('early-login');
  });

  it('answers index.html as built for paths without hints, or a build without them', () => {
    expect(createIndexHtml(webDir(hints))('/nowhere')).toBe(INDEX);
    expect(createIndexHtml(webDir())('/login')).toBe(INDEX);
  });

  it('knows a path with a dot in its last part as a page only when a route matches it', () => {
    const index = createIndexHtml(webDir(hints));
    expect(index.isPage('/clients/appointment.created')).toBe(true);
    expect(index.isPage('/foo.php')).toBe(false);
  });

  it('matches route patterns like the router', () => {
    expect(matchesRoute('/', '/')).toBe(true);
    expect(matchesRoute('/login', '/login/')).toBe(true);
    expect(matchesRoute('/clients/:clientId', '/clients/abc')).toBe(true);
    expect(matchesRoute('/clients/:clientId', '/clients/')).toBe(false);
    expect(matchesRoute('/clients/:clientId', '/clients/abc/edit')).toBe(false);
  });
});

describe('the origins the help videos may come from (CSP media-src)', () => {
  it('allows each configured host once, and no other host: there is no placeholder default', async () => {
    const { helpVideoOrigins } = await import('../../server/http/security-headers');
    const four =
      'https://cdn.praxis.example/a.mp4, https://cdn.praxis.example/b.mp4,https://v.example:8443/c.mp4,https://v.example:8443/d.mp4';
    expect(helpVideoOrigins({ VITE_HELP_VIDEO_URLS: four })).toEqual([
      'https://cdn.praxis.example',
      'https://v.example:8443',
    ]);
    expect(helpVideoOrigins({ VITE_HELP_VIDEO_URLS: undefined })).toEqual([]);
    expect(helpVideoOrigins({ VITE_HELP_VIDEO_URLS: 'https://cdn.praxis.example/a.mp4' })).toEqual([
      'https://cdn.praxis.example',
    ]);
  });

  it('gives the help page a video only for the topics that have one', async () => {
    const { helpVideos } = await import('../../src/lib/config');
    expect(helpVideos('').map((v) => v.url)).toEqual([null, null, null, null]);
    expect(
      helpVideos('https://v.example/a.mp4,,https://v.example/c.mp4').map((v) => v.url),
    ).toEqual(['https://v.example/a.mp4', null, 'https://v.example/c.mp4', null]);
  });
});

describe("the visitor's language in index.html (server/web/static.ts)", () => {
  const hints = [{ pattern: '/login', js: [], css: [], ns: ['auth'] }];
  const langs = ['de', 'en'];
  const req = (headers: Record<string, string>, query: Record<string, string> = {}) => ({
    headers,
    query,
  });

  it('names the English start files and the page namespaces for an English browser', () => {
    const login = createIndexHtml(webDir(hints))('/login', 'en');
    for (const file of ['en/translation', 'en/common', 'en/auth', 'de/auth']) {
      expect(login).toContain(
        `<link rel="preload" href="/locales/${file}.json" as="fetch" crossorigin="anonymous">`,
      );
    }
    expect(createIndexHtml(webDir(hints))('/nowhere', 'en')).toContain('/locales/en/common.json');
    expect(createIndexHtml(webDir(hints))('/login', 'de')).not.toContain('/locales/en/');
  });

  it('takes the language as the app detects it: ?lng=, the cookie, then Accept-Language by weight', () => {
    expect(startLanguage(req({ 'accept-language': 'en-US,en;q=0.9' }), langs)).toBe('en');
    expect(startLanguage(req({ 'accept-language': 'fr-FR, de;q=0.8, en;q=0.9' }), langs)).toBe(
      'en',
    );
    expect(startLanguage(req({ 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' }), langs)).toBe('de');
    expect(startLanguage(req({ 'accept-language': 'fr, es' }), langs)).toBe('de');
    expect(startLanguage(req({}), langs)).toBe('de');
    expect(startLanguage(req({ cookie: 'a=1; i18next=de', 'accept-language': 'en' }), langs)).toBe(
      'de',
    );
    expect(startLanguage(req({ 'accept-language': 'de' }, { lng: 'en' }), langs)).toBe('en');
  });
});
