import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from '../../server/testing/test-app';

// Against a listening server, with raw sockets, as a slow or oversized client would send:
// a client trickling its request is answered 408 and cut within the configured timeouts while
// others are served; a body over the limit gets a 413 the client can read.

const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;

let api: TestApp;
let port: number;
/** The app's log entries (JSON lines at info and above). */
const logged: Array<{ level: number; msg: string; cut?: string; error?: { code?: string } }> = [];

beforeAll(async () => {
  api = await createTestApp({
    ...(process.env.DATABASE_URL ? { template: inject('templateDatabase') } : {}),
    env: {
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      LOG_LEVEL: 'info',
    },
    logger: true,
    logStream: { write: (line: string) => void logged.push(JSON.parse(line)) },
    withAuthProvider: true,
  });
  await api.app.listen({ host: '127.0.0.1', port: 0 });
  port = (api.app.server.address() as { port: number }).port;
});
afterAll(() => api.close());

interface Outcome {
  /** What the server sent before it closed (or the test gave up). */
  received: string;
  /** Milliseconds from the first byte sent until the connection ended. */
  endedAfterMs: number;
  error?: string;
}

/** A whole HTTP answer: its head and as many bytes of body as it announced. */
function complete(received: string) {
  const end = received.indexOf('\r\n\r\n');
  const length = /\r\ncontent-length: (\d+)/i.exec(received)?.[1];
  return end >= 0 && length !== undefined && received.length >= end + 4 + Number(length);
}

/**
 * Opens a socket, lets `drive` write to it, and collects the answer until the server closes
 * the connection or, on a kept-alive one, the answer is complete.
 */
function exchange(
  drive: (socket: Socket) => void,
  { untilClosed = false, giveUpMs = 15_000 } = {},
): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const started = Date.now();
    let error: string | undefined;
    const done = () => {
      clearTimeout(timer);
      resolve({
        received: Buffer.concat(chunks).toString('latin1'),
        endedAfterMs: Date.now() - started,
        ...(error ? { error } : {}),
      });
    };
    const timer = setTimeout(() => {
      socket.destroy();
    }, giveUpMs);
    socket.on('data', (c) => {
      chunks.push(c);
      if (!untilClosed && complete(Buffer.concat(chunks).toString('latin1'))) socket.destroy();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', done);
    socket.on('connect', () => drive(socket));
  });
}

/** Writes `text` one byte every `everyMs`, as long as the socket is open. */
function trickle(socket: Socket, text: string, everyMs = 200) {
  let i = 0;
  const tick = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(tick);
    socket.write(text[i++]!);
  }, everyMs);
  socket.on('close', () => clearInterval(tick));
}

const statusOf = (received: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]);

async function quickRequest(path = '/healthz') {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return res.status;
}

describe('slow clients', () => {
  it('answers a client trickling its headers with 408 and serves others meanwhile', async () => {
    const slow = exchange((s) =>
      trickle(s, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: yes\r\n\r\n'),
    );
    // Others are served while it trickles.
    const served = await Promise.all([quickRequest(), quickRequest('/api/openapi.json')]);
    expect(served).toEqual([200, 200]);
    const outcome = await slow;
    expect(statusOf(outcome.received), outcome.received).toBe(408);
    expect(outcome.endedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 1_500);
  });

  it('answers a client trickling its body with 408 within the request timeout', async () => {
    const body = JSON.stringify({ firstName: 'Anna', lastName: 'Langsam', email: 'a@b.de' });
    const slow = Array.from({ length: 200 }, () =>
      exchange((s) => {
        s.write(
          `POST /api/client/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${body.length}\r\n\r\n`,
        );
        trickle(s, body);
      }),
    );
    expect(await quickRequest()).toBe(200);
    const from = logged.length;
    for (const outcome of await Promise.all(slow)) {
      expect(statusOf(outcome.received), outcome.received).toBe(408);
      expect(outcome.endedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1_500);
    }
    expect(await quickRequest()).toBe(200);
    // Logged as what it is: a client cut at the request timeout, at info level; not an error
    // ("request failed", 503, ECONNRESET) as if the database had gone.
    const entries = logged.slice(from);
    expect(entries.filter((e) => e.level >= 40).map((e) => `${e.msg} ${e.error?.code}`)).toEqual(
      [],
    );
    expect(
      entries.filter((e) => e.msg.startsWith('client cut')).map((e) => [e.level, e.cut]),
    ).toEqual(Array.from({ length: 200 }, () => [30, 'timeout']));
  });
});

describe('bodies over the limit', () => {
  const TEN_MB = 10 * 1024 * 1024;

  /**
   * Sends headers and then the body in 64 KB pieces, as fast as the socket takes them, and
   * reads the answer only once everything is sent, as a simple client (curl) does.
   */
  function upload(path: string, headers: string, chunks: number, piece: (i: number) => Buffer) {
    return exchange((s) => {
      s.pause();
      s.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}\r\n`,
      );
      let i = 0;
      const more = () => {
        while (i < chunks && !s.destroyed) {
          if (!s.write(piece(i++))) return s.once('drain', more);
        }
        if (i >= chunks) s.resume();
      };
      more();
    });
  }

  it('answers a 10 MB body to /auth/login with a 413 the client can read', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const outcome = await upload(
      '/auth/login',
      `Content-Length: ${TEN_MB}\r\n`,
      TEN_MB / chunk.length,
      () => chunk,
    );
    expect(statusOf(outcome.received), `${outcome.error} ${outcome.received.slice(0, 200)}`).toBe(
      413,
    );
  });

  it('answers a chunked upload over the limit with a 413 the client can read', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const framed = Buffer.concat([
      Buffer.from(`${chunk.length.toString(16)}\r\n`),
      chunk,
      Buffer.from('\r\n'),
    ]);
    const outcome = await upload(
      '/api/client/signup',
      'Transfer-Encoding: chunked\r\n',
      160,
      (i) => (i === 159 ? Buffer.concat([framed, Buffer.from('0\r\n\r\n')]) : framed),
    );
    expect(statusOf(outcome.received), `${outcome.error} ${outcome.received.slice(0, 200)}`).toBe(
      413,
    );
    expect(outcome.received).toContain('payload_too_large');
  });

  it('cuts a client that goes on sending after its 413 at the request timeout', async () => {
    const framed = (size: number) =>
      Buffer.concat([
        Buffer.from(`${size.toString(16)}\r\n`),
        Buffer.alloc(size, 'a'),
        Buffer.from('\r\n'),
      ]);
    const outcome = await exchange(
      (s) => {
        s.write(
          'POST /api/client/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
            'Transfer-Encoding: chunked\r\n\r\n',
        );
        s.write(framed(2 * 1024 * 1024));
        const tick = setInterval(
          () => (s.destroyed ? clearInterval(tick) : s.write(framed(16))),
          100,
        );
        s.on('close', () => clearInterval(tick));
      },
      { untilClosed: true },
    );
    expect(statusOf(outcome.received)).toBe(413);
    expect(outcome.endedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1_500);
  });
});
