import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApi, type Api } from '../support/api';
import { expectStatus, newAppointment, newClient, unique, type Caller } from './fixtures';
import { messagesOf, parseInvite, testClock } from './notifications-support';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A local SMTP sink: accepts every mail on 127.0.0.1 and keeps it raw. */
async function smtpSink() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

interface Part {
  headers: Record<string, string>;
  body: string;
}

/** Splits a MIME message into its leaf parts (enough for nodemailer's output). */
function leafParts(raw: string): Part[] {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of head!.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  if (!boundary) return [{ headers, body }];
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .flatMap((p) => leafParts(p.replace(/^\r?\n/, '')));
}

function decode(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'base64')
    return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = part.body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return part.body;
}

/** The decoded subject (RFC 2047 words joined). */
function subjectOf(raw: string): string {
  const header = /^subject:(.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1] ?? '';
  return header
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    )
    .trim();
}

const clock = testClock();
let sink: Awaited<ReturnType<typeof smtpSink>>;
let api: Api;
let admin: Caller;
let coach: Awaited<ReturnType<Api['signIn']>>;

beforeAll(async () => {
  sink = await smtpSink();
  api = await createApi({
    env: {
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      MAIL_FROM: 'Praxis Sprechstunde <termine@praxis.example>',
    },
    jobs: { clock },
  });
  admin = await api.signIn('ADMIN');
  coach = await api.signIn('COACH');
});
afterAll(async () => {
  await api?.close();
  await sink?.close();
});

it('delivers the invitation through real SMTP with a text/calendar REQUEST part the calendar parses', async () => {
  const email = `${unique('s')}@klient.example`;
  const client = await newClient(api, admin, {
    firstName: 'Sina',
    lastName: 'Smtp',
    email,
    coachedById: coach.coachId,
  });
  const a = await newAppointment(api, coach, {
    clientId: client.id,
    coachId: coach.coachId!,
    startDate: '2030-12-03T13:30:00.000Z',
    appointmentType: 'followup',
    minutes: 50,
  });
  await api.app.jobs.runDue();

  const mail = sink.received.find((m) => m.to.includes(email));
  expect(mail, 'the sink received the client’s invitation').toBeDefined();
  expect(mail!.from).toBe('termine@praxis.example');
  expect(subjectOf(mail!.raw)).toBe('Ihr Termin am Dienstag, 3. Dezember 2030, 14:30 Uhr');

  const parts = leafParts(mail!.raw);
  const text = parts.find((p) => p.headers['content-type']?.startsWith('text/plain'))!;
  expect(decode(text)).toContain(`http://localhost:3000/meeting/${a.meetingCodeClient}`);
  expect(decode(text)).toContain('Termin (Folgetermin)');

  const calendarPart = parts.find((p) => p.headers['content-type']?.startsWith('text/calendar'))!;
  expect(calendarPart.headers['content-type']).toMatch(/method=REQUEST/i);
  const invite = parseInvite(decode(calendarPart));
  expect(invite.method).toBe('REQUEST');
  expect(invite.event.uid).toBe(`appointment-${a.id}@localhost`);
  expect(new Date(invite.event.start).toISOString()).toBe('2030-12-03T13:30:00.000Z');
  expect(new Date(invite.event.end!).toISOString()).toBe('2030-12-03T14:20:00.000Z');
  expect(JSON.stringify(invite.event.organizer)).toContain('termine@praxis.example');

  const stored = (await messagesOf(api, a.id)).find((m) => m.recipient === email)!;
  expect(stored).toMatchObject({ status: 'sent', attempts: 1 });
  expect(stored.providerMessageId).toMatch(/@/);

  // The cancellation goes the same way, as METHOD:CANCEL.
  expectStatus(await api.call('DELETE', `/api/appointment/${a.id}`, { as: coach }), 200);
  await api.app.jobs.runDue();
  const cancel = sink.received.filter((m) => m.to.includes(email)).at(-1)!;
  const cancelPart = leafParts(cancel.raw).find((p) =>
    p.headers['content-type']?.startsWith('text/calendar'),
  )!;
  expect(cancelPart.headers['content-type']).toMatch(/method=CANCEL/i);
  expect(parseInvite(decode(cancelPart)).event.status).toBe('CANCELLED');
});

it('sends under the practice settings’ name, and signs with it', async () => {
  const superadmin = await api.signIn('SUPERADMIN');
  const saved = await api.call('PUT', '/api/admin/practice-settings', {
    as: superadmin,
    body: { name: 'Praxis am See' },
  });
  expect(saved.status).toBe(200);
  const email = `${unique('n')}@klient.example`;
  const client = await newClient(api, admin, {
    firstName: 'Nora',
    lastName: 'Name',
    email,
    coachedById: coach.coachId,
  });
  await newAppointment(api, coach, {
    clientId: client.id,
    coachId: coach.coachId!,
    startDate: '2030-12-04T13:30:00.000Z',
    appointmentType: 'followup',
    minutes: 50,
  });
  await api.app.jobs.runDue();
  const mail = sink.received.find((m) => m.to.includes(email));
  expect(mail, 'the sink received the client’s invitation').toBeDefined();
  // The address stays MAIL_FROM's; the name shown is the practice's.
  expect(mail!.from).toBe('termine@praxis.example');
  expect(mail!.raw).toMatch(/^From: "?Praxis am See"? <termine@praxis\.example>/m);
  const text = leafParts(mail!.raw).find((p) =>
    p.headers['content-type']?.startsWith('text/plain'),
  )!;
  expect(decode(text)).toContain('Ihr Team von Praxis am See');
});
