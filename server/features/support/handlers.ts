import { eq, sql } from 'drizzle-orm';
import { createMailer, type Mailer } from '../../adapters/mail/mailer';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { supportMessages } from '../../db/schema/index';
import { defineHandlers } from '../../http/handler';
import { badRequest } from '../../http/problem';
import { recordEvent } from '../events/index';
import { practiceName } from '../practice/index';
import { confirmationMail, forwardMail } from './mails';
import { inTransaction } from '../../db/transaction';

// One mailer per database handle (its nodemailer transport is reused across requests).
const mailers = new WeakMap<Db, Mailer>();
function mailerFor(db: Db, config: Config): Mailer {
  let mailer = mailers.get(db);
  if (!mailer) {
    mailer = createMailer({
      db,
      from: config.MAIL_FROM,
      senderName: () => practiceName(db, config),
      smtpUrl: config.SMTP_URL,
    });
    mailers.set(db, mailer);
  }
  return mailer;
}

/** Replaces the mailer for a database handle (tests: a failing one); undefined restores it. */
export function setSupportMailer(db: Db, mailer: Mailer | undefined) {
  if (mailer) mailers.set(db, mailer);
  else mailers.delete(db);
}

export const supportHandlers = defineHandlers({
  /**
   * A staff member's support request: stored, forwarded to SUPPORT_EMAIL and confirmed to
   * the sender by e-mail. The request counts once it is stored; mails go out after the commit,
   * and `forwardedAt` records that the team got it.
   */
  async sendSupportMessage({ body, principal, deps, reply }) {
    const user = principal.user!;
    await deps.rateLimits.supportMessage.consume(user.id);
    const subject = body.subject.trim();
    const message = body.message.trim();
    if (!subject) throw badRequest('subject', 'value_missing', 'The subject is empty');
    if (!message) throw badRequest('message', 'value_missing', 'The message is empty');
    const senderEmail = user.email || principal.email || '';

    const stored = await inTransaction(deps.db, async (tx) => {
      const [row] = await tx
        .insert(supportMessages)
        .values({ userId: user.id, senderEmail, category: body.category, subject, message })
        .returning({ id: supportMessages.id, createdAt: supportMessages.createdAt });
      await recordEvent(tx, {
        type: 'support.message_sent',
        entityType: 'support_message',
        entityId: row!.id,
        actor: principal,
        important: false,
        changes: { category: body.category },
      });
      return row!;
    });

    const mailer = mailerFor(deps.db, deps.config);
    const mail = {
      id: stored.id,
      createdAt: stored.createdAt,
      senderEmail,
      category: body.category,
      subject,
      message,
    };
    try {
      await mailer.send({
        ...forwardMail(mail, deps.config),
        to: deps.config.SUPPORT_EMAIL,
        key: `support-${stored.id}-forward`,
      });
      await deps.db
        .update(supportMessages)
        .set({ forwardedAt: sql`now()` })
        .where(eq(supportMessages.id, stored.id));
      if (senderEmail)
        await mailer.send({
          ...confirmationMail(mail),
          to: senderEmail,
          key: `support-${stored.id}-confirmation`,
        });
    } catch (error) {
      // Stored is what counts; an unsent mail stays visible as forwarded_at IS NULL.
      reply.log.warn(
        { supportMessageId: stored.id, error: (error as Error).name },
        'support mail not sent',
      );
    }
    reply.code(201);
    return { id: stored.id };
  },
});
