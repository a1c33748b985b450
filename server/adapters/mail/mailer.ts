import nodemailer from 'nodemailer';
import type { Db } from '../../db/client';
import { communications } from '../../db/schema/index';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Template name, stored with the communication (e.g. auth_passcode_login). */
  template: string;
}

/** A mail sent at once, outside the queue. */
export interface DirectMail extends MailMessage {
  /**
   * Names this one message by what it is about (`support-<id>-forward`): its `Message-ID`, so
   * the same mail sent again (a retried request or job) is folded by the receiver's program,
   * as the queue's messages are by their stored id.
   */
  key: string;
}

/** A mail whose log row the caller keeps itself (appointment messages). */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** An iCalendar invitation or cancellation, sent as the mail's text/calendar part. */
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string } | undefined;
  /** Files attached to the mail (an invoice's PDF and XML). */
  attachments?: { filename: string; contentType: string; content: Buffer }[] | undefined;
  /**
   * The stored message's own id: every try of the message carries the same `Message-ID`
   * header, so a mail program shows a mail sent twice (a try whose outcome was lost) once.
   */
  id?: string | undefined;
}

export interface Mailer {
  /** `capture` stores mails for the development mailbox; `smtp` sends them. */
  readonly transport: 'capture' | 'smtp';
  /** Sends and logs the mail as a sent communication. */
  send(message: DirectMail): Promise<void>;
  /** Only sends (throws when the server refuses); the caller records the outcome. */
  deliver(message: OutgoingMail): Promise<{ messageId: string | null }>;
  /** Whether the mail server answers now (connect and greeting; capture: always). */
  probe(): Promise<boolean>;
}

export interface MailerOptions {
  db: Db;
  from: string;
  /**
   * The display name of the sender, asked at each send (the practice settings' name, so a
   * renamed practice sends under its new name at once); unset or null keeps `from` as it is.
   */
  senderName?: () => Promise<string | null>;
  /** smtp(s)://user:pass@host:port; unset = capture. */
  smtpUrl?: string | undefined;
  now?: () => Date;
}

/**
 * How long one step of an SMTP conversation may take (connect, greeting, any reply). A mail
 * server that hangs fails the try after this instead of nodemailer's minutes; the job retries.
 */
export const SMTP_TIMEOUT_MS = 10_000;

/**
 * nodemailer's SMTP settings for SMTP_URL: short timeouts, and a pool of connections reused
 * across messages, so a backlog goes out without a TCP and SMTP handshake per mail.
 */
export const smtpTransportOptions = (url: string) => ({
  url,
  pool: true,
  maxConnections: 5,
  maxMessages: 100,
  connectionTimeout: SMTP_TIMEOUT_MS,
  greetingTimeout: SMTP_TIMEOUT_MS,
  socketTimeout: SMTP_TIMEOUT_MS,
});

/**
 * Whether the mail server refused the message for good (an SMTP 5xx reply: unknown mailbox,
 * rejected content). Sending it again would be refused again.
 */
export function isPermanentMailError(error: unknown): boolean {
  const e = error as { permanent?: unknown; responseCode?: unknown } | null;
  if (typeof e?.permanent === 'boolean') return e.permanent;
  return typeof e?.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
}

/** The `Message-ID` of a stored message: its id at the sender's domain, the same on every try. */
export const messageIdOf = (id: string, domain: string) => `<${id}@${domain}>`;

/**
 * Sends e-mail through nodemailer. Without SMTP_URL every mail is captured (JSON transport)
 * and stored in `communications` with its text, so the development mailbox shows it and
 * tests read it. With SMTP the mail goes out and the log row keeps no body: bodies hold
 * one-time codes, which must not lie around in the database.
 */
export function createMailer(options: MailerOptions): Mailer {
  const transport = options.smtpUrl ? 'smtp' : 'capture';
  const transporter = options.smtpUrl
    ? nodemailer.createTransport(smtpTransportOptions(options.smtpUrl))
    : nodemailer.createTransport({ jsonTransport: true });
  const now = options.now ?? (() => new Date());
  const address = (/<([^>]+)>/.exec(options.from)?.[1] ?? options.from).trim();
  const domain = address.includes('@') ? address.slice(address.lastIndexOf('@') + 1) : 'localhost';
  const sender = async () => {
    const name = options.senderName ? await options.senderName() : null;
    return name ? { name, address } : options.from;
  };
  return {
    transport,
    async deliver(message) {
      const info = await transporter.sendMail({
        from: await sender(),
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.id ? { messageId: messageIdOf(message.id, domain) } : {}),
        // nodemailer adds the calendar as a text/calendar alternative with its METHOD and as
        // an invite.ics attachment, which mail programs show with accept/decline buttons.
        ...(message.calendar
          ? {
              icalEvent: {
                method: message.calendar.method,
                filename: message.calendar.method === 'CANCEL' ? 'absage.ics' : 'einladung.ics',
                content: message.calendar.content,
              },
            }
          : {}),
        ...(message.attachments?.length ? { attachments: message.attachments } : {}),
      });
      return { messageId: typeof info.messageId === 'string' ? info.messageId : null };
    },
    async probe() {
      if (transport === 'capture') return true;
      try {
        return await transporter.verify();
      } catch {
        return false;
      }
    },
    async send(message) {
      const info = await transporter.sendMail({
        from: await sender(),
        to: message.to,
        subject: message.subject,
        text: message.text,
        messageId: messageIdOf(message.key, domain),
      });
      await options.db.insert(communications).values({
        channel: 'email',
        template: message.template,
        recipient: message.to,
        subject: message.subject,
        body: transport === 'capture' ? message.text : '',
        status: 'sent',
        attempts: 1,
        providerMessageId: typeof info.messageId === 'string' ? info.messageId : null,
        sentAt: now().toISOString(),
      });
    },
  };
}
