import type { TFunction } from 'i18next';
import type { components } from '../../../shared/contract/product';
import { tKey } from '../../i18n/keys';

/** The German words of a sent message: its channel, status and, for an SMS, what it was about. */
type Communication = components['schemas']['Communication'];

export const COMMUNICATION_STATUS: Record<Communication['status'], string> = {
  queued: tKey('staff:communications.status.queued'),
  sent: tKey('staff:communications.status.sent'),
  failed: tKey('staff:communications.status.failed'),
};
/** What kind of message it was: the subject of an SMS, which has none of its own. */
const TEMPLATES: Record<string, string> = {
  appointment_booked: tKey('staff:communications.template.appointment_booked'),
  appointment_rescheduled: tKey('staff:communications.template.appointment_rescheduled'),
  appointment_cancelled: tKey('staff:communications.template.appointment_cancelled'),
  appointment_invitation: tKey('staff:communications.template.appointment_invitation'),
  appointment_reminder_24h: tKey('staff:communications.template.appointment_reminder_24h'),
  appointment_reminder_1h: tKey('staff:communications.template.appointment_reminder_1h'),
  appointment_taken_over: tKey('staff:communications.template.appointment_taken_over'),
  appointment_handed_over: tKey('staff:communications.template.appointment_handed_over'),
  client_contract_reminder: tKey('staff:communications.template.client_contract_reminder'),
  client_sign_in_link: tKey('staff:communications.template.client_sign_in_link'),
};
const OTHER_TEMPLATE = tKey('staff:communications.template.other');
export const CHANNELS: Record<Communication['channel'], string> = {
  email: tKey('staff:communications.channel.email'),
  sms: tKey('staff:communications.channel.sms'),
};

/** A message's subject, or for an SMS (which has none) the kind of message it was. */
export const messageTitle = (c: Pick<Communication, 'subject' | 'template'>, t: TFunction) =>
  c.subject ?? t(TEMPLATES[c.template] ?? OTHER_TEMPLATE);
