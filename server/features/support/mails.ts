import { inBerlin } from '../../../shared/time';
import type { Config } from '../../config';

/** German labels of the support categories, as the form shows them. */
const CATEGORY_LABELS: Record<string, string> = {
  technical: 'Technisches Problem',
  scheduling: 'Termine und Kalender',
  billing: 'Abrechnung',
  account: 'Konto und Anmeldung',
  feedback: 'Feedback',
  other: 'Sonstiges',
};

export interface SupportMail {
  id: string;
  createdAt: string;
  senderEmail: string;
  category: string;
  subject: string;
  message: string;
}

/** "26.11.2026, 14:05" in Berlin. */
const received = (iso: string) =>
  inBerlin(iso).toLocaleString('de-DE', { dateStyle: 'medium', timeStyle: 'short' });

/** The request as the support team receives it (reply goes to the sender). */
export function forwardMail(m: SupportMail, config: Config) {
  return {
    template: 'support_request',
    subject: `Supportanfrage: ${m.subject}`,
    text: [
      `Neue Supportanfrage über ${config.PUBLIC_URL}`,
      '',
      `Von: ${m.senderEmail || '(keine Adresse)'}`,
      `Thema: ${CATEGORY_LABELS[m.category] ?? m.category}`,
      `Eingegangen: ${received(m.createdAt)}`,
      `Vorgangsnummer: ${m.id}`,
      '',
      `Betreff: ${m.subject}`,
      '',
      m.message,
    ].join('\n'),
  };
}

/** The confirmation the sender receives. */
export function confirmationMail(m: SupportMail) {
  return {
    template: 'support_confirmation',
    subject: `Ihre Supportanfrage ist eingegangen: ${m.subject}`,
    text: [
      'Guten Tag,',
      '',
      'vielen Dank für Ihre Nachricht. Ihre Supportanfrage ist bei uns eingegangen, wir melden uns so bald wie möglich.',
      '',
      `Thema: ${CATEGORY_LABELS[m.category] ?? m.category}`,
      `Betreff: ${m.subject}`,
      `Vorgangsnummer: ${m.id}`,
      '',
      'Ihre Nachricht:',
      m.message,
      '',
      'Mit freundlichen Grüßen',
      'Ihr Sprechstunde-Team',
    ].join('\n'),
  };
}
