import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAuthTestApp, uniqueEmail, type AuthTestApp } from '../support/auth-client';

// one test sends a passcode through real SMTP to a local sink and reads it back.

const received: { to: string[]; raw: string }[] = [];
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
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

let t: AuthTestApp;
beforeAll(async () => {
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const { port } = sink.server.address() as AddressInfo;
  t = await createAuthTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => sink.close(() => resolve()));
});

/** The text part of a nodemailer message, quoted-printable decoded. */
const textOf = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

it('a registration passcode travels over SMTP and the code from the received mail signs the person up', async () => {
  const email = uniqueEmail('smtp');
  const init = await t.begin('registration');
  const pc = await t.act(init, 'register_login_identifier', { email });
  expect(pc.name).toBe('passcode_confirmation');
  await t.app.jobs.runDue();
  await expect
    .poll(() => received.filter((m) => m.to.includes(email)).length, { timeout: 10_000 })
    .toBe(1);
  const mail = received.find((m) => m.to.includes(email))!;
  expect(mail.raw).toMatch(/^Subject: .+/m);
  const code = /Einmalcode für Sprechstunde: (\d{6})/.exec(
    Buffer.from(textOf(mail.raw), 'latin1').toString('utf8'),
  )?.[1];
  expect(code).toMatch(/^\d{6}$/);
  // With SMTP, the stored copy keeps no body (it would hold the code).
  const [stored] = await t.mails(email);
  expect(stored?.body ?? '').not.toContain(code!);
  const next = await t.act(pc, 'verify_passcode', { code: code! });
  expect(next.name).toBe('password_creation');
});
