import { createServer, type Socket } from 'node:net';
import { and, count, eq, inArray } from 'drizzle-orm';
import { TestClock } from 'pg-boss';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communications } from '../../server/db/schema/index';
import { AUTH_MAIL_JOB, DELIVER_JOB } from '../../server/features/notifications/enqueue';
import { startAppJobs } from '../../server/app-jobs';
import { freePort } from '../../server/testing/scratch-postgres';
import { createAuthTestApp, uniqueEmail } from '../support/auth-client';

// sign-in mail through the job queue (SMTP down, hanging,
// refusing), and a backlog sent in concurrent batches.

/** A local SMTP sink on a fixed port that can be down (refusing connections) and come up. */
function smtpSink(port: number) {
  const received: { to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // Addresses starting with "refused" do not exist: a permanent 550.
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('refused')) {
        return callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  let up = false;
  return {
    received,
    async up() {
      if (up) return;
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      up = true;
    },
    close: () => (up ? new Promise<void>((resolve) => server.close(() => resolve())) : undefined),
  };
}

/** The code in a received mail (quoted-printable decoded). */
const codeIn = (raw: string) =>
  /Einmalcode für Sprechstunde: (\d{6})/.exec(
    Buffer.from(
      raw
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8'),
  )?.[1];

const clock = new TestClock(new Date());
let sink: ReturnType<typeof smtpSink>;
let t: Awaited<ReturnType<typeof createAuthTestApp>>;

beforeAll(async () => {
  const port = await freePort();
  sink = smtpSink(port);
  t = await createAuthTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` }, jobs: { clock } });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/** Starts a registration and answers with the passcode step and how long the answer took. */
async function askForCode(email: string) {
  const init = await t.begin('registration');
  const started = performance.now();
  const pc = await t.act(init, 'register_login_identifier', { email });
  return { pc, ms: performance.now() - started };
}

const authJobsOf = async (communicationId: string) =>
  (await t.app.jobs.all<{ communicationId: string }>(AUTH_MAIL_JOB, { communicationId })).map(
    (j) => j.state,
  );

describe('a sign-in code while the mail server is down', () => {
  it('is answered at once, stored as queued, retried, and delivered once the server is back', async () => {
    const email = uniqueEmail('down');
    const { pc, ms } = await askForCode(email);
    expect(pc.name).toBe('passcode_confirmation');
    expect(ms).toBeLessThan(3_000);
    const [stored] = await t.mails(email);
    expect(stored).toMatchObject({ status: 'queued', template: 'auth_email_verification' });

    // The first try meets a closed port: the message stays queued, the job waits to retry.
    expect(await t.app.jobs.runDue()).toBe(1);
    let [mail] = await t.mails(email);
    expect(mail).toMatchObject({ status: 'queued', attempts: 1 });
    expect(mail!.error).toMatch(/ECONNREFUSED|connect/i);
    expect(await authJobsOf(mail!.id)).toEqual(['retry']);
    expect(await t.app.jobs.runDue()).toBe(0);

    // The server comes back; the retry comes due within seconds, not hours.
    await sink.up();
    const [job] = await t.app.jobs.waiting(AUTH_MAIL_JOB, { communicationId: mail!.id });
    expect(job!.startAfter.getTime() - clock.now()).toBeLessThanOrEqual(15_000);
    await clock.setTime(job!.startAfter.getTime() + 1000);
    expect(await t.app.jobs.runDue()).toBe(1);
    [mail] = await t.mails(email);
    expect(mail).toMatchObject({ status: 'sent', attempts: 2, error: null });
    // With SMTP the stored copy keeps no code once sent.
    expect(mail!.body).toBe('');

    const received = sink.received.filter((m) => m.to.includes(email));
    expect(received).toHaveLength(1);
    const code = codeIn(received[0]!.raw);
    expect(code).toMatch(/^\d{6}$/);
    expect((await t.act(pc, 'verify_passcode', { code: code! })).name).toBe('password_creation');
  });

  it('is answered at once when the mail server hangs, and the try gives up after the send timeout', async () => {
    const sockets: Socket[] = [];
    // Accepts connections and never says a word (no SMTP greeting).
    const silent = createServer((socket) => sockets.push(socket));
    const port = await freePort();
    await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', resolve));
    const hanging = await createAuthTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}` },
      jobs: { clock: new TestClock(new Date()) },
    });
    try {
      const email = uniqueEmail('hang');
      const init = await hanging.begin('registration');
      const started = performance.now();
      const pc = await hanging.act(init, 'register_login_identifier', { email });
      expect(pc.name).toBe('passcode_confirmation');
      expect(performance.now() - started).toBeLessThan(3_000);

      const tried = performance.now();
      await hanging.app.jobs.runDue();
      expect(performance.now() - tried).toBeLessThan(15_000);
      const [mail] = await hanging.mails(email);
      expect(mail).toMatchObject({ status: 'queued', attempts: 1 });
      expect(mail!.error).toMatch(/timeout|greeting never received/i);
    } finally {
      await hanging.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 40_000);
});

describe('a permanent refusal (SMTP 5xx)', () => {
  it('fails a sign-in mail at once instead of retrying it', async () => {
    await sink.up();
    const email = uniqueEmail('refused');
    expect((await askForCode(email)).pc.name).toBe('passcode_confirmation');
    expect(await t.app.jobs.runDue()).toBe(1);
    const [mail] = await t.mails(email);
    expect(mail).toMatchObject({ status: 'failed', attempts: 1, body: '' });
    expect(mail!.error).toMatch(/550/);
    expect(await authJobsOf(mail!.id)).toEqual(['completed']);
    await clock.setTime(clock.now() + 24 * 60 * 60_000);
    expect(await t.app.jobs.runDue()).toBe(0);
  });

  it('fails an appointment message at once instead of retrying it four times', async () => {
    await sink.up();
    const db = t.database.db;
    const [row] = await db
      .insert(communications)
      .values({
        channel: 'email',
        template: 'booked_client',
        recipient: 'refused-client@klient.example',
        subject: 'Ihr Termin',
        body: 'Guten Tag',
        status: 'queued',
      })
      .returning({ id: communications.id });
    await t.app.jobs.send(db, DELIVER_JOB, { communicationId: row!.id });
    expect(await t.app.jobs.runDue()).toBe(1);
    const [mail] = await db.select().from(communications).where(eq(communications.id, row!.id));
    expect(mail).toMatchObject({ status: 'failed', attempts: 1 });
    expect(mail!.error).toMatch(/550/);
    expect(await t.app.jobs.waiting(DELIVER_JOB, { communicationId: row!.id })).toEqual([]);
  });
});

describe('a backlog of mail', () => {
  it('goes out in concurrent batches: 60 queued messages are sent within 10 s', async () => {
    await sink.up();
    const db = t.database.db;
    // Queued while no worker runs (real clock), then the workers start.
    const enqueue = await startAppJobs({ db, config: t.config, workers: false });
    const ids = await db.transaction(async (tx) => {
      const rows = await tx
        .insert(communications)
        .values(
          Array.from({ length: 60 }, (_, i) => ({
            channel: 'email' as const,
            template: 'booked_client',
            recipient: `backlog-${i}@klient.example`,
            subject: 'Ihr Termin',
            body: 'Guten Tag',
            status: 'queued' as const,
          })),
        )
        .returning({ id: communications.id });
      for (const { id } of rows) await enqueue.send(tx, DELIVER_JOB, { communicationId: id });
      return rows.map((r) => r.id);
    });
    await enqueue.stop();
    const sent = async () =>
      (
        await db
          .select({ n: count() })
          .from(communications)
          .where(and(inArray(communications.id, ids), eq(communications.status, 'sent')))
      )[0]!.n;
    const workers = await startAppJobs({ db, config: t.config, workers: true });
    try {
      await expect.poll(sent, { timeout: 10_000, interval: 200 }).toBe(60);
    } finally {
      await workers.stop();
    }
    expect(sink.received.filter((m) => m.to[0]!.startsWith('backlog-'))).toHaveLength(60);
  }, 30_000);
});
