/**
 * `POST /admin/client/{clientId}/contract/reminder`: mails a client who has not signed the
 * required contract a German reminder. The mail is a `communications` row delivered by the
 * notification job queued in the same transaction (retried like every message, listed with
 * the client's communications); `contractReminderSentAt` records when it went out.
 */

import type { Tx } from '../../db/client';
import { practiceName } from '../practice/index';
import { clients, communications } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import type { AppDeps } from '../../http/handler';
import { conflict, notFound } from '../../http/problem';
import { updateRecorded } from '../events/index';
import { DELIVER_JOB, type DeliverJobData } from '../notifications/index';
import { findClient } from './repository';
import { inTransaction } from '../../db/transaction';

export const CONTRACT_REMINDER_TEMPLATE = 'client_contract_reminder';

export function contractReminderMail(practice: string, name: string, publicUrl: string) {
  return {
    subject: `Bitte unterschreiben Sie Ihre Vereinbarung mit ${practice}`,
    text: [
      `Guten Tag ${name},`,
      '',
      `damit Ihr Coaching bei ${practice} weitergehen kann, fehlt noch Ihre Unterschrift unter die Teilnahmevereinbarung.`,
      'Sie haben die Vereinbarung per E-Mail erhalten. Bitte unterschreiben Sie sie in den nächsten Tagen.',
      '',
      `Fragen beantworten wir gern – melden Sie sich einfach über ${new URL('/client-signup/login', publicUrl).toString()} an oder antworten Sie auf diese E-Mail.`,
      '',
      `Freundliche Grüße\nIhr Team von ${practice}`,
    ].join('\n'),
  };
}

export async function sendContractReminder(
  deps: Pick<AppDeps, 'db' | 'config' | 'jobs' | 'now' | 'rateLimits'>,
  principal: Principal,
  clientId: string,
): Promise<{ sentAt: string }> {
  return inTransaction(deps.db, async (tx: Tx) => {
    const client = await findClient(tx, principal, clientId);
    if (!client) throw notFound('client');
    if (!client.hasNotSignedRequiredContract) {
      throw conflict('contract_already_signed', 'The client has signed the contract');
    }
    const email = client.email?.trim();
    if (!email) throw conflict('no_contact', 'The client has no e-mail address');
    await deps.rateLimits.contractReminder.consume(clientId);
    const sentAt = deps.now().toISOString();
    const mail = contractReminderMail(
      await practiceName(tx, deps.config),
      `${client.firstName} ${client.lastName}`,
      deps.config.PUBLIC_URL,
    );
    const [row] = await tx
      .insert(communications)
      .values({
        channel: 'email',
        template: CONTRACT_REMINDER_TEMPLATE,
        recipient: email,
        subject: mail.subject,
        body: mail.text,
        clientId,
        status: 'queued',
      })
      .returning({ id: communications.id });
    await deps.jobs.send<DeliverJobData>(tx, DELIVER_JOB, { communicationId: row!.id });
    await updateRecorded(
      tx,
      clients,
      clientId,
      { contractReminderSentAt: sentAt },
      {
        type: 'client.contract_reminder_sent',
        entityType: 'client',
        clientId,
        coachId: client.coachedBy?.id ?? null,
        actor: principal,
      },
    );
    return { sentAt };
  });
}
