import type { Db, Tx } from '../../db/client';
import { practiceName } from '../practice/index';
import { communications } from '../../db/schema/index';
import { DELIVER_JOB, type DeliverJobData, type NotifyDeps } from './enqueue';

export const STAFF_INVITATION_TEMPLATE = 'staff_invitation';

const ROLE_NAMES: Record<string, string> = {
  COACH: 'Coach',
  ADMIN: 'Administrator:in',
  ONBOARDING_MANAGER: 'Onboarding-Manager:in',
  SUPERADMIN: 'Superadministrator:in',
};

/**
 * The link in the invitation: the activation page, which registers a signed-out visitor and
 * then asks for the code. The code itself is not in the mail: the admin hands it over, so an
 * account with staff rights needs both the mailbox and the admin's word.
 */
export const staffActivationLink = (config: NotifyDeps['config']) =>
  `${config.PUBLIC_URL.replace(/\/+$/, '')}/activate`;

/** Queues the new staff member's invitation mail inside the caller's transaction. */
export async function enqueueStaffInvitation(
  tx: Db | Tx,
  deps: NotifyDeps,
  input: { email: string; role: string },
): Promise<void> {
  const { config } = deps;
  const practice = await practiceName(tx, config);
  const link = staffActivationLink(config);
  const roleName = ROLE_NAMES[input.role] ?? input.role;
  const text = [
    'Guten Tag,',
    '',
    `für Sie wurde bei ${practice} ein Konto als ${roleName} angelegt.`,
    '',
    'So schalten Sie es frei:',
    `1. Öffnen Sie ${link}`,
    `2. Registrieren Sie sich dort mit dieser E-Mail-Adresse (${input.email}); Sie erhalten einen Einmalcode per E-Mail.`,
    '3. Geben Sie danach den Aktivierungscode ein, den Ihnen die Person gegeben hat, die Ihr Konto angelegt hat.',
    '',
    'Haben Sie sich schon registriert, melden Sie sich auf derselben Seite an.',
    '',
    `Ihr Team von ${practice}`,
  ].join('\n');
  const [row] = await tx
    .insert(communications)
    .values({
      channel: 'email',
      template: STAFF_INVITATION_TEMPLATE,
      recipient: input.email,
      subject: `Ihr Konto bei ${practice}: bitte freischalten`,
      body: text,
      status: 'queued',
    })
    .returning({ id: communications.id });
  await deps.jobs.send<DeliverJobData>(tx, DELIVER_JOB, { communicationId: row!.id });
}
