import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import pg from 'pg';
import { projectRoot } from '../paths';
import { freePort, startScratchPostgres, type ScratchPostgres } from './scratch-postgres';
import { createTestIssuer } from './test-auth';

/**
 * Database outages, tried on the real server: `server/main.ts` in a child process (as
 * `npm run start:api` runs it, job workers on) against a throwaway PostgreSQL cluster that the
 * drill restarts or stops while callers write through the API. Used by the restart test
 * (tests/integration/db-restart.test.ts) and the benchmark (bench/db-restart.ts).
 */

const ISSUER = 'http://drill.invalid/auth';
const AUDIENCE = 'sprechstunde';

export interface DrillServer {
  url: string;
  authorization: string;
  /** Exit code or signal once the process ended; null while it runs. */
  exited(): string | null;
  /** What the server printed (its last 8 kB) — for a failure message. */
  output(): string;
  /** Every log entry at warn level or above so far (the server logs JSON lines at warn). */
  logged(): Array<{ level: number; msg: string }>;
  stop(): Promise<void>;
  /** kill -9: the process ends at once, whatever it was doing. */
  kill(): Promise<void>;
}

export interface Drill {
  cluster: ScratchPostgres;
  databaseUrl: string;
  /** The real server on the drill's database, signed in as an admin (`env`: more settings). */
  startServer(env?: Record<string, string>): Promise<DrillServer>;
  /** Client ids among `ids` that are not in the database. */
  missing(ids: string[]): Promise<string[]>;
  close(): Promise<void>;
}

export async function startDrill(): Promise<Drill> {
  const cluster = await startScratchPostgres();
  const database = `spr_drill_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const databaseUrl = cluster.url(database);

  // The product trusts this issuer's keys (AUTH_JWKS_URL), so no auth provider is involved.
  const issuer = await createTestIssuer(ISSUER, AUDIENCE);
  const jwksPort = await freePort();
  const jwks: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(issuer.jwks));
  });
  await new Promise<void>((resolve) => jwks.listen(jwksPort, '127.0.0.1', resolve));
  const servers = new Set<DrillServer>();

  const withDb = async <T>(work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };

  async function startServer(extraEnv: Record<string, string> = {}): Promise<DrillServer> {
    const port = await freePort();
    let output = '';
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: projectRoot,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        DATABASE_URL: databaseUrl,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        SEED_DEMO_DATA: 'false',
        JOBS_WORKERS: 'true',
        AUTH_JWKS_URL: `http://127.0.0.1:${jwksPort}/jwks.json`,
        AUTH_ISSUER: ISSUER,
        AUTH_AUDIENCE: AUDIENCE,
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const entries: Array<{ level: number; msg: string }> = [];
    let partial = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-8192);
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        try {
          const entry = JSON.parse(line) as { level?: unknown; msg?: unknown };
          if (typeof entry.level === 'number')
            entries.push({ level: entry.level, msg: String(entry.msg) });
        } catch {
          // Not a log entry.
        }
      }
    });
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    let exit: string | null = null;
    child.on('exit', (code, signal) => {
      exit = signal ?? `exit ${code}`;
    });
    const url = `http://127.0.0.1:${port}`;
    const server: DrillServer = {
      url,
      authorization: '',
      exited: () => exit,
      output: () => output,
      logged: () => [...entries],
      async stop() {
        servers.delete(server);
        if (exit) return;
        const ended = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await ended;
        clearTimeout(timer);
      },
      async kill() {
        servers.delete(server);
        if (exit) return;
        const ended = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await ended;
      },
    };
    servers.add(server);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (exit) throw new Error(`the server ended at start (${exit}):\n${output}`);
      if (Date.now() > deadline) throw new Error(`the server did not start:\n${output}`);
      const ready = await fetch(`${url}/api/openapi.json`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const sub = randomUUID();
    const email = `drill-${sub.slice(0, 8)}@example.test`;
    await withDb((client) =>
      client.query(
        `INSERT INTO users (auth_subject, email, role, active) VALUES ($1, $2, 'ADMIN', true)`,
        [sub, email],
      ),
    );
    server.authorization = `Bearer ${await issuer.sign({ sub, email, expiresIn: '2h' })}`;
    return server;
  }

  return {
    cluster,
    databaseUrl,
    startServer,
    missing: (ids) =>
      withDb(async (client) => {
        const { rows } = await client.query<{ id: string }>(
          `SELECT id FROM clients WHERE id = ANY($1::uuid[])`,
          [ids],
        );
        const found = new Set(rows.map((r) => r.id));
        return ids.filter((id) => !found.has(id));
      }),
    async close() {
      for (const server of [...servers]) await server.stop();
      await new Promise<void>((resolve) => jwks.close(() => resolve()));
      await cluster.destroy();
    },
  };
}

export interface Answer {
  status: number;
  /** When the request was sent and answered (ms, performance.now()). */
  sentAt: number;
  answeredAt: number;
  retryAfter: string | null;
  code: string | null;
  /** The created client's id (2xx writes). */
  id: string | null;
}

/** One write through the API: an admin creates a client (a transaction: client + event). */
export async function createClientCall(server: DrillServer, label: string): Promise<Answer> {
  const sentAt = performance.now();
  try {
    const res = await fetch(`${server.url}/api/admin/client`, {
      method: 'POST',
      headers: { authorization: server.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Drill', lastName: label }),
      signal: AbortSignal.timeout(20_000),
    });
    const body = (await res.json().catch(() => ({}))) as { id?: string; code?: string };
    return {
      status: res.status,
      sentAt,
      answeredAt: performance.now(),
      retryAfter: res.headers.get('retry-after'),
      code: body.code ?? null,
      id: res.ok ? (body.id ?? null) : null,
    };
  } catch {
    // No answer at all (connection refused or reset, or the 20 s timeout): status 0.
    return {
      status: 0,
      sentAt,
      answeredAt: performance.now(),
      retryAfter: null,
      code: null,
      id: null,
    };
  }
}

/** Callers that write in a loop until stopped; every answer is kept. */
export function writeLoad(server: DrillServer, concurrency: number) {
  const answers: Answer[] = [];
  let running = true;
  let n = 0;
  const loops = Array.from({ length: concurrency }, async () => {
    while (running) {
      const answer = await createClientCall(server, `Last-${n++}`);
      answers.push(answer);
      // A refused request comes back at once: do not spin while the server is unreachable.
      if (answer.status === 0 || answer.status >= 500) await new Promise((r) => setTimeout(r, 50));
    }
  });
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(loops);
      return answers;
    },
  };
}

export const countByStatus = (answers: Answer[]) =>
  answers.reduce<Record<string, number>>((counts, a) => {
    counts[a.status] = (counts[a.status] ?? 0) + 1;
    return counts;
  }, {});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RestartResult {
  mode: 'fast' | 'immediate';
  /** The process still runs and answers. */
  alive: boolean;
  /** Acknowledged (2xx) writes, and those of them missing from the database afterwards. */
  acknowledged: number;
  missing: number;
  /** From the restart's end to the first 2xx of a request sent after it (ms); null: never. */
  recoveryMs: number | null;
  statuses: Record<string, number>;
  restartMs: number;
}

/** Restarts the cluster under a write load and checks what the callers and the data saw. */
export async function restartUnderLoad(
  drill: Drill,
  server: DrillServer,
  options: { mode: 'fast' | 'immediate'; concurrency?: number; recoverWithinMs?: number },
): Promise<RestartResult> {
  const load = writeLoad(server, options.concurrency ?? 8);
  await sleep(1_000);
  const before = performance.now();
  await drill.cluster.restart(options.mode);
  const restarted = performance.now();
  const deadline = restarted + (options.recoverWithinMs ?? 15_000);
  const recovered = () =>
    load.answers.find((a) => a.status >= 200 && a.status < 300 && a.sentAt >= restarted);
  while (!recovered() && performance.now() < deadline && !server.exited()) await sleep(50);
  await sleep(500);
  const answers = await load.stop();
  const ok = recovered();
  const acknowledged = answers.filter((a) => a.id).map((a) => a.id!);
  const alive =
    !server.exited() &&
    (await fetch(`${server.url}/api/openapi.json`).then(
      (r) => r.ok,
      () => false,
    ));
  return {
    mode: options.mode,
    alive,
    acknowledged: acknowledged.length,
    missing: (await drill.missing(acknowledged)).length,
    recoveryMs: ok ? Math.round(ok.answeredAt - restarted) : null,
    statuses: countByStatus(answers),
    restartMs: Math.round(restarted - before),
  };
}

/**
 * Stops the cluster, sends `requests` calls (reads and writes, `concurrency` at a time) while
 * it is down, starts it again and answers how they were answered.
 */
export async function outageBurst(
  drill: Drill,
  server: DrillServer,
  options: { requests?: number; concurrency?: number } = {},
) {
  const total = options.requests ?? 60;
  await drill.cluster.stop('fast');
  const answers: Answer[] = [];
  let next = 0;
  const read = async (path: string): Promise<Answer> => {
    const sentAt = performance.now();
    const res = await fetch(`${server.url}${path}`, {
      headers: { authorization: server.authorization },
      signal: AbortSignal.timeout(20_000),
    }).catch(() => null);
    const body = res ? ((await res.json().catch(() => ({}))) as { code?: string }) : {};
    return {
      status: res?.status ?? 0,
      sentAt,
      answeredAt: performance.now(),
      retryAfter: res?.headers.get('retry-after') ?? null,
      code: body.code ?? null,
      id: null,
    };
  };
  const calls = [
    () => createClientCall(server, `Outage-${next}`),
    () => read('/api/admin/client'),
    () => read('/api/appointments'),
  ];
  await Promise.all(
    Array.from({ length: options.concurrency ?? 10 }, async () => {
      while (next < total) answers.push(await calls[next++ % calls.length]!());
    }),
  );
  await drill.cluster.start();
  return {
    requests: answers.length,
    byStatus: countByStatus(answers),
    withRetryAfter: answers.filter((a) => a.retryAfter !== null).length,
    codes: [...new Set(answers.map((a) => a.code))],
    maxMs: Math.round(Math.max(...answers.map((a) => a.answeredAt - a.sentAt))),
  };
}
