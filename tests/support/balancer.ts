import http from 'node:http';
import type { AddressInfo } from 'node:net';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
]);

interface Backend {
  url: URL;
  ready: boolean;
  failures: number;
  agent: http.Agent;
  checking: boolean;
}

const UNHEALTHY_AFTER = 2;

/**
 * A small load balancer as a practice would put in front of several instances: it checks
 * each backend's `GET /readyz` every `intervalMs` (each backend on its own, a check failing
 * after 2 s), takes a backend out of service after two failed checks in a row and back after
 * one that answered 200, and sends requests round-robin to the backends in service, over
 * kept-alive connections. It never retries: a request that a backend drops is a failed request
 * for the caller (answered 502 and listed in `errors`).
 */
export async function startBalancer(options: { intervalMs: number }) {
  const backends = new Map<string, Backend>();
  const errors: string[] = [];
  let next = 0;

  const check = async (backend: Backend) => {
    const ok = await fetch(new URL('/readyz', backend.url), {
      signal: AbortSignal.timeout(2_000),
    }).then(
      (r) => r.status === 200,
      () => false,
    );
    backend.failures = ok ? 0 : backend.failures + 1;
    if (ok) backend.ready = true;
    else if (backend.failures >= UNHEALTHY_AFTER) backend.ready = false;
  };
  const watch = async (backend: Backend) => {
    while (backend.checking) {
      await check(backend);
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs));
    }
  };
  const watching: Promise<void>[] = [];

  const server = http.createServer((req, res) => {
    const ready = [...backends.values()].filter((b) => b.ready);
    if (ready.length === 0) {
      errors.push(`${req.method} ${req.url}: no backend ready`);
      res.writeHead(503).end();
      return;
    }
    const backend = ready[next++ % ready.length]!;
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name)),
    );
    const upstream = http.request(
      {
        host: backend.url.hostname,
        port: backend.url.port,
        method: req.method,
        path: req.url,
        headers,
        agent: backend.agent,
      },
      (answer) => {
        const out = Object.fromEntries(
          Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)),
        );
        res.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(res);
        answer.on('error', (error) => {
          errors.push(
            `${req.method} ${req.url} via ${backend.url.port}: answer cut (${error.message})`,
          );
          res.destroy();
        });
      },
    );
    upstream.on('error', (error) => {
      errors.push(`${req.method} ${req.url} via ${backend.url.port}: ${error.message}`);
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    errors,
    /** Adds a backend; it gets requests once a check found it ready. */
    async add(url: string) {
      const backend: Backend = {
        url: new URL(url),
        ready: false,
        failures: 0,
        agent: new http.Agent({ keepAlive: true }),
        checking: true,
      };
      backends.set(url, backend);
      await check(backend);
      watching.push(watch(backend));
    },
    remove(url: string) {
      const backend = backends.get(url);
      if (!backend) return;
      backend.checking = false;
      backend.agent.destroy();
      backends.delete(url);
    },
    readyCount: () => [...backends.values()].filter((b) => b.ready).length,
    async close() {
      for (const backend of backends.values()) {
        backend.checking = false;
        backend.agent.destroy();
      }
      await Promise.all(watching);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
