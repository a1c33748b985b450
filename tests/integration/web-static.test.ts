// The built web app's files as a browser receives them (server/web/static.ts):
// the build's brotli and gzip copies chosen by Accept-Encoding, long-lived caching for hashed
// files, revalidation for index.html, and correct headers for every variant.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api } from '../support/api';

const SCRIPT = `export const greeting = ${JSON.stringify('Guten Tag! '.repeat(400))};\n`;
const STYLE = `.login{color:#123}\n`;
const INDEX = `<!doctype html><html lang="de"><head><meta charset="UTF-8" /><title>Sprechstunde</title><script type="module" crossorigin src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>`;
const BROWSER = 'gzip, deflate, br, zstd';

let api: Api;

/** A build as vite.config.ts writes it: the script with its two copies, the style without. */
function fakeBuild() {
  const dir = mkdtempSync(path.join(tmpdir(), 'web-static-'));
  mkdirSync(path.join(dir, 'assets'));
  mkdirSync(path.join(dir, '.vite'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'index.html.br'), brotliCompressSync(INDEX));
  writeFileSync(path.join(dir, 'assets/index-Ab12Cd34.js'), SCRIPT);
  writeFileSync(path.join(dir, 'assets/index-Ab12Cd34.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dir, 'assets/index-Ab12Cd34.js.gz'), gzipSync(SCRIPT));
  // Too small to be worth a copy: the build writes none.
  writeFileSync(path.join(dir, 'assets/LoginPage-Xy98Zw76.css'), STYLE);
  writeFileSync(
    path.join(dir, '.vite/route-hints.json'),
    JSON.stringify([
      { pattern: '/login', js: [], css: ['/assets/LoginPage-Xy98Zw76.css'], ns: ['auth'] },
    ]),
  );
  return dir;
}

beforeAll(async () => {
  api = await createApi({ env: { WEB_DIST_DIR: fakeBuild() } });
});
afterAll(() => api.close());

const get = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  api.app.inject({ method: method as 'GET', url, headers });

describe('hashed files of the build', () => {
  it('sends the brotli copy to a browser that accepts it, with the headers of the script', async () => {
    const res = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': BROWSER });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers['content-type'])).toMatch(/^(text|application)\/javascript/);
    expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the gzip copy when brotli is not accepted', async () => {
    for (const accept of ['gzip, deflate', 'br;q=0, gzip', '*']) {
      const res = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(Number(res.headers['content-length']), accept).toBe(res.rawPayload.length);
      expect(gunzipSync(res.rawPayload).toString(), accept).toBe(SCRIPT);
    }
  });

  it('sends the file as it is without Accept-Encoding, for identity only, or when there is no copy', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const res = await get('/assets/index-Ab12Cd34.js', headers);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body).toBe(SCRIPT);
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(SCRIPT));
      expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
    }
    const style = await get('/assets/LoginPage-Xy98Zw76.css', { 'accept-encoding': BROWSER });
    expect(style.statusCode).toBe(200);
    expect(style.headers['content-encoding']).toBeUndefined();
    expect(String(style.headers['content-type'])).toMatch(/^text\/css/);
    expect(style.body).toBe(STYLE);
  });

  it('answers HEAD with the headers of the copy GET would send, and no body', async () => {
    const res = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': BROWSER }, 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(Number(res.headers['content-length'])).toBe(brotliCompressSync(SCRIPT).length);
    expect(res.rawPayload.length).toBe(0);
  });

  it('answers a revalidation of the copy it sent with 304 and no body', async () => {
    const first = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': BROWSER });
    const etag = String(first.headers.etag);
    const again = await get('/assets/index-Ab12Cd34.js', {
      'accept-encoding': BROWSER,
      'if-none-match': etag,
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // The uncompressed file is another representation with a validator of its own.
    const plain = await get('/assets/index-Ab12Cd34.js');
    expect(plain.headers.etag).not.toBe(etag);
  });

  it('does not offer the copies as files of their own', async () => {
    expect((await get('/assets/index-Ab12Cd34.js.br')).statusCode).toBe(404);
    expect((await get('/assets/index-Ab12Cd34.js.gz')).statusCode).toBe(404);
  });
});

describe("the app's pages (index.html with the route's hints)", () => {
  it('sends /login compressed, revalidated on every visit, with its hints', async () => {
    const res = await get('/login', { 'accept-encoding': BROWSER });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const html = brotliDecompressSync(res.rawPayload).toString();
    expect(html).toContain('href="/assets/LoginPage-Xy98Zw76.css"');

    const gzip = await get('/login', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(html);

    const plain = await get('/login');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(html);
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(html));
  });

  it('answers an unchanged page with 304 and HEAD without a body', async () => {
    const first = await get('/login', { 'accept-encoding': BROWSER });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"/);
    const again = await get('/login', { 'accept-encoding': BROWSER, 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // Another encoding is another representation: no 304 for it.
    const gzip = await get('/login', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzip.statusCode).toBe(200);

    const head = await get('/clients/42', { 'accept-encoding': BROWSER }, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.rawPayload.length).toBe(0);
  });
});

describe('translation files', () => {
  it('sends them compressed to a browser', async () => {
    const res = await get('/locales/de/auth.json', { 'accept-encoding': BROWSER });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
    const json = JSON.parse(brotliDecompressSync(res.rawPayload).toString()) as object;
    expect(Object.keys(json).length).toBeGreaterThan(0);
    const plain = await get('/locales/de/auth.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body)).toEqual(json);
  });
});
