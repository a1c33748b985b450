/**
 * Child process of bench/auth.ts: the load generator, on an event loop (and a core) of its
 * own, as a real caller is. It waits for jobs over IPC, runs each (warm-up, then the
 * measured window) and answers with the raw client-side latencies:
 *
 * - `flow`: `connections` loops, each starting a login flow (`POST /auth/login`) and
 *   answering its preflight (`register_client_capabilities`), over and over.
 * - `floor`: `connections` loops posting a tiny JSON body to `url` (the cheapest round trip
 *   of the server under test); `status` is the answer expected.
 *
 * Messages to the parent: `{ type: 'measuring' }` when the warm-up ends, then
 * `{ type: 'done', … }`. BENCH_CLIENT=fetch uses fetch instead of node:http.
 */
import http from 'node:http';

export type LoadJob =
  | { kind: 'flow'; base: string; connections: number; warmupS: number; durationS: number }
  | {
      kind: 'floor';
      url: string;
      status: number;
      connections: number;
      warmupS: number;
      durationS: number;
    };

export interface LoadDone {
  type: 'done';
  /** flow: start latencies; floor: the requests' latencies (ms). */
  starts: number[];
  /** flow: preflight latencies (ms); floor: empty. */
  steps: number[];
  failures: number;
  /** CPU time of this process in the measured window (ms). */
  cpuMs: number;
  wallS: number;
}

const CLIENT = process.env.BENCH_CLIENT === 'fetch' ? 'fetch' : 'http';
const PREFLIGHT = JSON.stringify({
  input_data: {
    webauthn_available: true,
    webauthn_conditional_mediation_available: false,
    webauthn_platform_authenticator_available: false,
  },
});

interface Answer {
  status: number;
  text: string;
}

function sender(connections: number) {
  // Kept-alive sockets, one per loop: the client's own cost stays small.
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const send = (url: string, payload: string): Promise<Answer> =>
    CLIENT === 'fetch'
      ? fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: payload,
        }).then(async (res) => ({
          status: res.status,
          text: await res.text(),
        }))
      : new Promise<Answer>((resolve, reject) => {
          const req = http.request(
            url,
            {
              method: 'POST',
              agent,
              headers: {
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(payload),
              },
            },
            (res) => {
              let text = '';
              res.setEncoding('utf8');
              res.on('data', (chunk: string) => (text += chunk));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
              res.on('error', reject);
            },
          );
          req.on('error', reject);
          req.end(payload);
        });
  return { send, close: () => agent.destroy() };
}

async function run(job: LoadJob): Promise<LoadDone> {
  const { send, close } = sender(job.connections);
  const starts: number[] = [];
  const steps: number[] = [];
  let failures = 0;
  let measuring = false;
  const complain = (what: string, answer: Answer) => {
    if (failures < 3)
      console.error(
        `[bench:auth load] ${what} answered ${answer.status}: ${answer.text.slice(0, 200)}`,
      );
    failures += 1;
  };
  const timed = async (url: string, payload: string) => {
    const t0 = performance.now();
    const answer = await send(url, payload);
    return { answer, ms: performance.now() - t0 };
  };

  async function flowLoop(base: string, until: () => boolean) {
    while (!until()) {
      const first = await timed(`${base}/auth/login`, '');
      const started =
        first.answer.status === 200
          ? (JSON.parse(first.answer.text) as {
              csrf_token: string;
              actions: Record<string, { href: string }>;
            })
          : null;
      const href = started?.actions.register_client_capabilities?.href;
      if (!started || !href) {
        complain('/auth/login', first.answer);
        continue;
      }
      const body = `${PREFLIGHT.slice(0, -1)},"csrf_token":${JSON.stringify(started.csrf_token)}}`;
      const second = await timed(`${base}/auth${href}`, body);
      if (
        second.answer.status !== 200 ||
        (JSON.parse(second.answer.text) as { name?: string }).name !== 'login_init'
      ) {
        complain(href, second.answer);
      }
      if (measuring) {
        starts.push(first.ms);
        steps.push(second.ms);
      }
    }
  }
  async function floorLoop(url: string, status: number, until: () => boolean) {
    while (!until()) {
      const { answer, ms } = await timed(url, '{}');
      if (answer.status !== status) complain(url, answer);
      if (measuring) starts.push(ms);
    }
  }

  const end = Date.now() + (job.warmupS + job.durationS) * 1000;
  let cpuAt = process.cpuUsage();
  let wallAt = performance.now();
  const timer = setTimeout(() => {
    measuring = true;
    cpuAt = process.cpuUsage();
    wallAt = performance.now();
    process.send?.({ type: 'measuring' });
  }, job.warmupS * 1000);
  const until = () => Date.now() >= end;
  await Promise.all(
    Array.from({ length: job.connections }, () =>
      job.kind === 'flow' ? flowLoop(job.base, until) : floorLoop(job.url, job.status, until),
    ),
  );
  clearTimeout(timer);
  const cpu = process.cpuUsage(cpuAt);
  const wallS = (performance.now() - wallAt) / 1000;
  close();
  return { type: 'done', starts, steps, failures, cpuMs: (cpu.user + cpu.system) / 1000, wallS };
}

process.on('message', (job: LoadJob) => {
  void run(job).then(
    (done) => process.send?.(done),
    (error: unknown) => {
      console.error('[bench:auth load] failed', error);
      process.exit(1);
    },
  );
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
