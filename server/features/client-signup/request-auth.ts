/**
 * `POST /client/request-auth` (staff): sends a client the way in — a link to
 * `/client-signup/login`, where they sign in with a one-time code by e-mail. The message is a
 * `communications` row delivered by the notification job (queued in this transaction), so
 * it is retried like every other message and shows in the development mailbox.
 */
import { eq, sql } from 'drizzle-orm';
import { practiceName, type PracticeConfig } from '../practice/index';
import type { Config } from '../../config';
import type { Tx } from '../../db/client';
import { clients, communications } from '../../db/schema/index';
import type { JobQueue } from '../../jobs/queue';
import { conflict } from '../../http/problem';
import { DELIVER_JOB, type DeliverJobData } from '../notifications/index';

export const SIGN_IN_TEMPLATE = 'client_sign_in_link';

export function signInLink(publicUrl: string, email: string | null) {
  const url = new URL('/client-signup/login', publicUrl);
  if (email) url.searchParams.set('email', email);
  return url.toString();
}

export function signInMail(practice: string, name: string, link: string) {
  return {
    subject: `Ihre Anmeldung bei ${practice}`,
    text: [
      `Guten Tag ${name},`,
      '',
      `über diesen Link melden Sie sich bei ${practice} an und sehen Ihren Termin:`,
      link,
      '',
      'Geben Sie dort Ihre E-Mail-Adresse ein. Wir senden Ihnen dann einen Einmalcode, mit dem Sie sich anmelden.',
      '',
      'Haben Sie das nicht erwartet? Dann können Sie diese E-Mail ignorieren.',
      '',
      `Freundliche Grüße\nIhr Team von ${practice}`,
    ].join('\n'),
  };
}

export const signInSms = (practice: string, link: string) =>
  `${practice}: Melden Sie sich hier mit einem Einmalcode an: ${link}`;

type ClientRow = Pick<
  typeof clients.$inferSelect,
  'id' | 'firstName' | 'lastName' | 'email' | 'telephone'
>;

const clientColumns = {
  id: clients.id,
  firstName: clients.firstName,
  lastName: clients.lastName,
  email: clients.email,
  telephone: clients.telephone,
};

export async function clientById(tx: Tx, id: string): Promise<ClientRow | null> {
  const [row] = await tx.select(clientColumns).from(clients).where(eq(clients.id, id));
  return row ?? null;
}

export async function clientByEmail(tx: Tx, email: string): Promise<ClientRow | null> {
  const [row] = await tx
    .select(clientColumns)
    .from(clients)
    .where(sql`lower(${clients.email}) = lower(${email})`)
    .limit(1);
  return row ?? null;
}

/** Queues the link to the client over `channel`; 409 no_contact without an address. */
export async function queueSignInLink(
  tx: Tx,
  deps: { config: Pick<Config, 'PUBLIC_URL'> & PracticeConfig; jobs: JobQueue },
  client: ClientRow,
  channel: 'email' | 'sms',
) {
  const recipient = channel === 'email' ? client.email?.trim() : client.telephone?.trim();
  if (!recipient) {
    throw conflict(
      'no_contact',
      channel === 'email'
        ? 'The client has no e-mail address'
        : 'The client has no telephone number',
    );
  }
  const practice = await practiceName(tx, deps.config);
  const link = signInLink(deps.config.PUBLIC_URL, client.email);
  const mail = signInMail(practice, `${client.firstName} ${client.lastName}`, link);
  const [row] = await tx
    .insert(communications)
    .values({
      channel,
      template: SIGN_IN_TEMPLATE,
      recipient,
      subject: channel === 'email' ? mail.subject : null,
      body: channel === 'email' ? mail.text : signInSms(practice, link),
      clientId: client.id,
      status: 'queued',
    })
    .returning({ id: communications.id });
  await deps.jobs.send<DeliverJobData>(tx, DELIVER_JOB, { communicationId: row!.id });
}
