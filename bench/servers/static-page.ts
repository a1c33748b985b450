/**
 * Child process of bench/web.ts: one static HTML page (BENCH_STATIC_PAGE, a file) at every
 * path, compressed as the app's pages are (brotli, else gzip, by Accept-Encoding), no-cache.
 * The yardstick for the app's first render: the same form, with nothing to run.
 * Reports its URL over IPC.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const html = readFileSync(process.env.BENCH_STATIC_PAGE!);
const br = brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
const gzip = gzipSync(html, { level: 9 });

const server = http.createServer((req, res) => {
  const accept = String(req.headers['accept-encoding'] ?? '');
  const [body, coding] = /\bbr\b/.test(accept)
    ? [br, 'br']
    : /\bgzip\b/.test(accept)
      ? [gzip, 'gzip']
      : [html, null];
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
    vary: 'accept-encoding',
    'content-length': body.length,
    ...(coding ? { 'content-encoding': coding } : {}),
  });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ url: `http://localhost:${port}` });
});
const shutdown = () => server.close(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('disconnect', shutdown);
