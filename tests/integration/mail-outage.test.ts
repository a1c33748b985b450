import { eq, inArray } from 'drizzle-orm';
import { TestClock } from 'pg-boss';
import type { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../server/adapters/mail/mailer';
import type { Db } from '../../server/db/client';
import { communications } from '../../server/db/schema/index';
import { DELIVER_JOB } from '../../server/features/notifications/enqueue';
import { mailRecovery, notificationJobs } from '../../server/features/notifications/index';
import type { JobDefinition } from '../../server/jobs/queue';
import { createSmsSender } from '../../server/adapters/sms/sms';
import { freePort } from '../../server/testing/scratch-postgres';
import { createApi } from '../support/api';
import { recordingSmtpServer, type ReceivedMail } from '../support/smtp-sink';

// Mail during a mail server outage and a database restart: sent once, retried for days,
// given up where staff see it, and sent at once when the server answers again.

/** A local SMTP sink on a fixed port that can be down (refusing connections) and come up. */
function smtpSink(port: number) {
  const received: ReceivedMail[] = [];
  // A closed SMTPServer does not serve again: each time up is a new one.
  const serve = () => recordingSmtpServer(received);
  let server: SMTPServer | null = null;
  return {
    received,
    async up() {
      if (server) return;
      const s = serve();
      await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', resolve));
      server = s;
    },
    async down() {
      const s = server;
      if (!s) return;
      server = null;
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}

const messageIdOf = (raw: string) => /^message-id:\s*(\S+)/im.exec(raw)?.[1];

const clock = new TestClock(new Date());
let port: number;
let sink: ReturnType<typeof smtpSink>;
let t: Awaited<ReturnType<typeof createApi>>;

beforeAll(async () => {
  port = await freePort();
  sink = smtpSink(port);
  t = await createApi({
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Praxis <termine@praxis.example>' },
    jobs: { clock },
  });
});
afterAll(async () => {
  await t?.close();
  await sink?.down();
});

/** Stores `n` queued appointment messages with a delivery job each; answers their ids. */
async function queue(n: number, prefix: string) {
  const db = t.database.db;
  const rows = await db
    .insert(communications)
    .values(
      Array.from({ length: n }, (_, i) => ({
        channel: 'email' as const,
        template: 'booked_client',
        recipient: `${prefix}-${i}@klient.example`,
        subject: 'Ihr Termin',
        body: 'Guten Tag',
        status: 'queued' as const,
      })),
    )
    .returning({ id: communications.id });
  for (const { id } of rows) await t.app.jobs.send(db, DELIVER_JOB, { communicationId: id });
  return rows.map((r) => r.id);
}

const stored = (ids: string[]) =>
  t.database.db.select().from(communications).where(inArray(communications.id, ids));

/** Runs what is due at the next retry of the first waiting job of `ids`; false when none waits. */
async function nextRetry(ids: string[]) {
  const waiting = (await t.app.jobs.waiting<{ communicationId: string }>(DELIVER_JOB)).filter((j) =>
    ids.includes(j.data.communicationId),
  );
  if (waiting.length === 0) return false;
  const at = Math.min(...waiting.map((j) => j.startAfter.getTime()));
  if (at > clock.now()) await clock.setTime(at + 1000);
  await t.app.jobs.runDue();
  return true;
}

describe('sent once', () => {
  it('every try of a message carries the same Message-ID, stored with the message', async () => {
    await sink.up();
    const [id] = await queue(1, 'mid');
    await t.app.jobs.runDue();
    const [row] = await stored([id!]);
    expect(row).toMatchObject({ status: 'sent' });
    expect(row!.providerMessageId).toBe(`<${id}@praxis.example>`);

    // A try whose "sent" was lost: the message is sent again, and a mail program folds the two.
    await t.database.db
      .update(communications)
      .set({ status: 'queued' })
      .where(eq(communications.id, id!));
    await t.app.jobs.send(t.database.db, DELIVER_JOB, { communicationId: id! });
    await t.app.jobs.runDue();
    expect((await stored([id!]))[0]).toMatchObject({
      status: 'sent',
      providerMessageId: `<${id}@praxis.example>`,
    });
    const mails = sink.received.filter((m) => m.to.includes('mid-0@klient.example'));
    expect(mails).toHaveLength(2);
    expect(mails.map((m) => messageIdOf(m.raw))).toEqual([
      `<${id}@praxis.example>`,
      `<${id}@praxis.example>`,
    ]);
  });

  it('a database that does not answer right after the send keeps the outcome: the mail is not sent again', async () => {
    await sink.up();
    const [id] = await queue(1, 'restart');
    // The database refuses the first two writes after the send, as during a restart.
    let refusals = 2;
    const real = t.database.db;
    const flaky = new Proxy(real, {
      get(target, key, receiver) {
        if (key === 'update') {
          return (...args: unknown[]) => {
            if (refusals > 0) {
              refusals--;
              throw new Error('Connection terminated unexpectedly');
            }
            return (target.update as (...a: unknown[]) => unknown)(...args);
          };
        }
        return Reflect.get(target, key, receiver) as unknown;
      },
    }) as Db;
    const deliver = notificationJobs({
      db: flaky,
      config: t.config,
      mailer: createMailer({ db: real, from: t.config.MAIL_FROM, smtpUrl: t.config.SMTP_URL }),
      sms: createSmsSender({ from: 'Praxis' }),
      jobs: () => t.app.jobs,
    }).find((d) => d.name === DELIVER_JOB) as JobDefinition<{ communicationId: string }>;
    const job = { id: 'drill', data: { communicationId: id! }, retryCount: 0, retryLimit: 3 };
    // As pg-boss does: a try that throws is tried again.
    for (let i = 0; i < 3; i++) {
      try {
        await deliver.run({ ...job, retryCount: i }, { now: new Date(clock.now()) });
        break;
      } catch {
        // the next try
      }
    }
    const [row] = await stored([id!]);
    expect(row).toMatchObject({ status: 'sent' });
    expect(sink.received.filter((m) => m.to.includes('restart-0@klient.example'))).toHaveLength(1);
  }, 30_000);
});

describe('a mail server outage', () => {
  it('is waited out for two days (not 7.5 minutes); then the message is failed and on the staff list', async () => {
    await sink.down();
    const ids = await queue(1, 'outage');
    const started = clock.now();
    await t.app.jobs.runDue();
    const statusAfter = async (ms: number) => {
      while (clock.now() - started < ms && (await nextRetry(ids)));
      return (await stored(ids))[0]!;
    };
    expect(await statusAfter(8 * 60_000)).toMatchObject({ status: 'queued' });
    expect(await statusAfter(24 * 3600_000)).toMatchObject({ status: 'queued' });
    // A long outage is tried about once an hour, not every few seconds.
    const day = (await stored(ids))[0]!.attempts;
    expect(day).toBeLessThan(40);
    expect(await statusAfter(47 * 3600_000)).toMatchObject({ status: 'queued' });
    const failed = await statusAfter(60 * 3600_000);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.error).toMatch(/ECONNREFUSED|connect/i);

    const admin = await t.signIn('ADMIN');
    const list = await t.call<{ communications: { id: string }[] }>(
      'GET',
      '/api/communications/failed',
      {
        as: admin,
      },
    );
    expect(list.status).toBe(200);
    expect(list.body.communications.map((c) => c.id)).toContain(ids[0]);
  }, 120_000);

  it('once the server answers again, what waits goes out at once, not at each message’s next retry', async () => {
    await sink.down();
    const ids = await queue(10, 'backlog');
    const started = clock.now();
    await t.app.jobs.runDue();
    // An hour into the outage the next tries are many minutes away.
    while (clock.now() - started < 3600_000 && (await nextRetry(ids)));
    const waiting = await t.app.jobs.waiting(DELIVER_JOB);
    expect(waiting.length).toBeGreaterThanOrEqual(10);
    expect(Math.max(...waiting.map((j) => j.startAfter.getTime())) - clock.now()).toBeGreaterThan(
      10 * 60_000,
    );

    const recovery = mailRecovery({
      mailer: createMailer({
        db: t.database.db,
        from: t.config.MAIL_FROM,
        smtpUrl: t.config.SMTP_URL,
      }),
      jobs: () => t.app.jobs,
    });
    // While the server is down the probe moves nothing.
    expect(await recovery.probe()).toBe(0);
    await sink.up();
    expect(await recovery.probe()).toBeGreaterThanOrEqual(10);
    await t.app.jobs.runDue();
    const rows = await stored(ids);
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(10);
  }, 120_000);
});
