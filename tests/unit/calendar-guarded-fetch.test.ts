// @vitest-environment node
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from '../../server/features/calendars/guarded-fetch';

// The CalDAV client's requests: redirects are followed through the same address check, and
// the credentials do not follow a redirect to another origin.
let server: Server;
let origin: string;
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ path: request.url ?? '', headers: request.headers });
    const port = (server.address() as AddressInfo).port;
    if (request.url === '/to-metadata') {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
    } else if (request.url === '/to-other-origin') {
      response.writeHead(307, { location: `http://localhost:${port}/landed` });
    } else {
      response.writeHead(207, { 'content-type': 'application/xml', etag: '"v1"' });
      response.write('<multistatus/>');
    }
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the guarded fetch of the CalDAV client', () => {
  it('answers like fetch where the practice allows its own network', async () => {
    const guarded = guardedFetch(true);
    try {
      const response = await guarded.fetch(`${origin}/dav`, {
        method: 'PROPFIND',
        headers: { authorization: 'Basic eA==' },
        body: '<propfind/>',
      });
      expect(response.status).toBe(207);
      expect(response.headers.get('etag')).toBe('"v1"');
      expect(await response.text()).toBe('<multistatus/>');
      expect(response.url).toBe(`${origin}/dav`);
    } finally {
      guarded.close();
    }
  });

  it('refuses a loopback address unless allowed, before any request is sent', async () => {
    const guarded = guardedFetch(false);
    const before = seen.length;
    try {
      await expect(guarded.fetch(`${origin}/dav`)).rejects.toThrow(TypeError);
      const byName = `http://localhost:${(server.address() as AddressInfo).port}/dav`;
      await expect(guarded.fetch(byName)).rejects.toThrow(TypeError);
    } finally {
      guarded.close();
    }
    expect(seen.length).toBe(before);
  });

  it('refuses a redirect to a cloud metadata address even where private addresses are allowed', async () => {
    const guarded = guardedFetch(true);
    try {
      const failure = await guarded.fetch(`${origin}/to-metadata`).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(TypeError);
      expect(String((failure as TypeError).cause)).toMatch(/metadata/);
    } finally {
      guarded.close();
    }
  });

  it('does not send the credentials on to another origin', async () => {
    const guarded = guardedFetch(true);
    try {
      const response = await guarded.fetch(`${origin}/to-other-origin`, {
        method: 'PROPFIND',
        headers: { authorization: 'Basic eA==', depth: '0' },
        body: '<propfind/>',
      });
      expect(response.status).toBe(207);
    } finally {
      guarded.close();
    }
    const landed = seen.find((s) => s.path === '/landed')!;
    expect(landed.headers.authorization).toBeUndefined();
    expect(landed.headers.depth).toBe('0');
    expect(seen.find((s) => s.path === '/to-other-origin')!.headers.authorization).toBe(
      'Basic eA==',
    );
  });
});
