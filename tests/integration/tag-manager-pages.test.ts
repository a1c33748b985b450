// The tag manager of the client sign-up pages (server/web/tag-manager.ts): named to the page,
// and allowed by its CSP, only on those pages of the production host; the browser loads it
// only after consent (tests/e2e/client-journey.test.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api } from '../support/api';

const INDEX = `<!doctype html><html lang="de"><head><meta charset="UTF-8" /><title>Sprechstunde</title></head><body><div id="root"></div></body></html>`;
const HOST = 'termine.praxis-beispiel.de';
const SCRIPT = 'https://tags.example.org/gtm.js?id=GTM-ABC123';

let api: Api;
let plain: Api;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tag-manager-'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  api = await createApi({
    env: {
      WEB_DIST_DIR: dir,
      PUBLIC_URL: `https://${HOST}`,
      TAG_MANAGER_ID: 'GTM-ABC123',
      TAG_MANAGER_SCRIPT_URL: 'https://tags.example.org/gtm.js',
    },
  });
  plain = await createApi({ env: { WEB_DIST_DIR: dir, PUBLIC_URL: `https://${HOST}` } });
}, 120_000);
afterAll(async () => {
  await api?.close();
  await plain?.close();
});

const page = async (app: Api, url: string, host = HOST) => {
  const res = await app.app.inject({ method: 'GET', url, headers: { host } });
  return { csp: String(res.headers['content-security-policy']), html: res.body };
};

describe('tag manager pages', () => {
  it('names the script and allows its origin on the sign-up pages of the production host', async () => {
    for (const url of [
      '/client-signup',
      '/client-signup/login',
      '/client-signup/cancel-appointment/x',
    ]) {
      const { csp, html } = await page(api, url);
      expect(html).toContain(`<meta name="tag-manager-script" content="${SCRIPT}">`);
      expect(csp).toMatch(/script-src 'self' [^;]*https:\/\/tags\.example\.org/);
      expect(csp).toMatch(/img-src 'self' data: https:\/\/tags\.example\.org/);
      expect(csp).toMatch(/connect-src 'self' https:\/\/tags\.example\.org/);
    }
  });

  it('keeps every other page, another host name and an unset container strict', async () => {
    const strict = [
      await page(api, '/mein-termin'),
      await page(api, '/login'),
      await page(api, '/client-signupx'),
      await page(api, '/client-signup', 'intern.praxis-beispiel.de'),
      await page(plain, '/client-signup'),
    ];
    for (const { csp, html } of strict) {
      expect(html).toContain('<div id="root">');
      expect(html).not.toContain('tag-manager-script');
      expect(csp).not.toContain('tags.example.org');
      expect(csp).not.toContain('googletagmanager');
    }
  });

  it('refuses a container id that is not one at start', async () => {
    await expect(createApi({ env: { TAG_MANAGER_ID: 'GTM-<x>' } })).rejects.toThrow(
      /TAG_MANAGER_ID/,
    );
  });
});
