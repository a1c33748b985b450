/**
 * What the HTTP benchmarks share: their load knobs from the environment, rounding and
 * percentiles, the headers the web app sends, autocannon runs of a scenario in turns with the
 * bare baseline, the head of a report, and the billable-item list scenarios of
 * bench/billing.ts and bench/billing-cpu.ts.
 */
import os from 'node:os';
import autocannon from 'autocannon';

/** A positive number from the environment, or `fallback`. */
export const env = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

/** Seconds of measured load per scenario (split into ROUNDS runs where paired). */
export const DURATION = env('BENCH_DURATION', 10);
/** Seconds of unrecorded load before a scenario's runs. */
export const WARMUP = env('BENCH_WARMUP', 2);
export const CONNECTIONS = env('BENCH_CONNECTIONS', 20);
/** How many runs in turns with the baseline. */
export const ROUNDS = env('BENCH_ROUNDS', 5);
/** The app's and the baseline's pool size. */
export const POOL_SIZE = env('DATABASE_POOL_SIZE', 10);

/** The settings a report records (the knobs above). */
export const loadSettings = () => ({
  connections: CONNECTIONS,
  durationS: DURATION,
  warmupS: WARMUP,
  rounds: ROUNDS,
  poolSize: POOL_SIZE,
});

/** The start of a report: when it ran and what it aimed for. */
export const reportHead = <T>(started: Date, targets: T) => ({
  startedAt: started.toISOString(),
  finishedAt: new Date().toISOString(),
  targets,
});

/** The machine a report ran on, briefly (other work on it skews the figures). */
export const machineBrief = () => ({
  cpus: os.cpus().length,
  node: process.version,
  loadAverage: os.loadavg().map((n) => round(n)),
});

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Nearest-rank percentile `p` (0–100) of ascending `sorted`; NaN when empty. */
export const percentile = (sorted: ArrayLike<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

/** What the web app's openapi-fetch client sends with a call, signed in with `token`. */
export const webAppHeaders = (token: string) => ({
  authorization: `Bearer ${token}`,
  accept: 'application/json',
  'accept-language': 'de-DE,de;q=0.9',
});

/** The test issuer of bench/servers/pair.ts, as far as the benchmarks use it. */
interface Issuer {
  sign(claims: { sub: string; email: string; expiresIn: string }): Promise<string>;
}

/** The web app's headers for `sub`, with a token good for two hours. */
export const signedHeaders = async (issuer: Issuer, sub: string, email: string) =>
  webAppHeaders(await issuer.sign({ sub, email, expiresIn: '2h' }));

/** One stretch of load on one URL: every response's latency and the counts. */
export interface Slice {
  latencies: number[];
  requests: number;
  non2xx: number;
  seconds: number;
}

/** `seconds` of load on `url`; `nextPath` gives each request a path of its own. */
export function loadSlice(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  nextPath?: () => string,
) {
  return new Promise<Slice>((resolve, reject) => {
    const latencies: number[] = [];
    const instance = autocannon(
      {
        url,
        headers,
        connections: CONNECTIONS,
        duration: seconds,
        ...(nextPath ? { requests: [{ setupRequest: (r) => ({ ...r, path: nextPath() }) }] } : {}),
      },
      (err, res) =>
        err
          ? reject(err)
          : resolve({
              latencies,
              requests: res.requests.total,
              non2xx: res.non2xx,
              seconds: res.duration,
            }),
    );
    instance.on('response', (_c, _s, _b, ms) => latencies.push(ms));
  });
}

/** The figures of slices taken together: 2xx per second and the latency percentiles. */
export function summarize(slices: Slice[]) {
  const sorted = slices.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const seconds = slices.reduce((n, s) => n + s.seconds, 0);
  const requests = slices.reduce((n, s) => n + s.requests, 0);
  const non2xx = slices.reduce((n, s) => n + s.non2xx, 0);
  return {
    requests,
    non2xx,
    okRps: round((requests - non2xx) / seconds, 1),
    latencyMs: {
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
    },
  };
}

/** The scenario and the baseline in turns, so both see the machine's other load alike. */
export async function pairedWithBaseline(
  url: string,
  headers: Record<string, string>,
  baseline: string,
  nextPath?: () => string,
) {
  await loadSlice(baseline, {}, WARMUP);
  await loadSlice(url, headers, WARMUP, nextPath);
  const seconds = Math.max(1, Math.round(DURATION / ROUNDS));
  const app: Slice[] = [];
  const base: Slice[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    base.push(await loadSlice(baseline, {}, seconds));
    app.push(await loadSlice(url, headers, seconds, nextPath));
  }
  return { app: summarize(app), baseline: summarize(base) };
}

/** A date `n` thirty-day months before `now` (epoch ms), as YYYY-MM-DD. */
export const monthsAgo = (n: number, now = Date.now()) =>
  new Date(now - n * 30 * 86_400_000).toISOString().slice(0, 10);

/** The list of billable items a page at a time, with the web app's page size and `params`. */
export const billableItemsPath = (params: Record<string, string>) =>
  `/api/billable-items?${new URLSearchParams({ limit: '25', ...params }).toString()}`;

/** The billable-item list as its screen asks for it: tabs, filters, a later page. */
export const billableItemScenarios = (f: {
  coachId: string;
  clientId: string;
  insurer: string;
}) => [
  { name: 'a.all', path: billableItemsPath({}) },
  { name: 'b.pendingTab', path: billableItemsPath({ status: 'pending' }) },
  {
    name: 'c.pendingQuarter',
    path: billableItemsPath({ status: 'pending', fromDate: monthsAgo(6), toDate: monthsAgo(3) }),
  },
  { name: 'd.coachApproved', path: billableItemsPath({ status: 'approved', coachId: f.coachId }) },
  { name: 'e.client', path: billableItemsPath({ clientId: f.clientId }) },
  {
    name: 'f.statutoryPending',
    path: billableItemsPath({ status: 'pending', payerKind: 'statutory_insurer' }),
  },
  {
    name: 'g.insurerInvoiced',
    path: billableItemsPath({ status: 'invoice_sent', insurer: f.insurer }),
  },
  { name: 'h.page5', path: billableItemsPath({ status: 'invoice_sent', page: '5' }) },
];

/** A list scenario: the path on the app, the headers it is asked with, maybe a path per request. */
export interface ListScenario {
  name: string;
  path: string;
  headers: Record<string, string>;
  nextPath?: () => string;
}

/**
 * One list scenario: asked once (a status other than 200 is recorded and the scenario
 * skipped), then measured in turns with the baseline; its rows are the body's `rowsKey` list.
 */
export async function measureListScenario(
  s: ListScenario,
  at: { appUrl: string; baselineUrl: string; rowsKey: string },
  target: { p95Ms: number; throughputShare: number },
  log: (...args: unknown[]) => void,
) {
  const probe = await fetch(at.appUrl + s.path, { headers: s.headers });
  const body = (await probe.json()) as { itemCount?: number } & Record<string, unknown>;
  if (probe.status !== 200) {
    log(`${s.name}: probe answered ${probe.status}`, body);
    return { name: s.name, url: s.path, skipped: probe.status };
  }
  const rows = body[at.rowsKey];
  const m = await pairedWithBaseline(at.appUrl + s.path, s.headers, at.baselineUrl, s.nextPath);
  const ratio = round(m.app.okRps / m.baseline.okRps, 3);
  const entry = {
    name: s.name,
    url: s.path,
    probe: { itemCount: body.itemCount, rows: Array.isArray(rows) ? rows.length : undefined },
    ...m.app,
    baseline: m.baseline,
    throughputVsBaseline: ratio,
    pass: {
      p95: m.app.latencyMs.p95 <= target.p95Ms,
      throughput: ratio >= target.throughputShare,
    },
  };
  log(
    `${s.name}: itemCount ${body.itemCount}; p50 ${entry.latencyMs.p50} / p95 ${entry.latencyMs.p95} / p99 ${entry.latencyMs.p99} ms, ` +
      `${entry.okRps} req/s (non-2xx ${entry.non2xx}), baseline ${m.baseline.okRps} req/s → ${(ratio * 100).toFixed(0)} % ${JSON.stringify(entry.pass)}`,
  );
  return entry;
}
