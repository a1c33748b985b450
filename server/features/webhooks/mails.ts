import type { MailMessage } from '../../adapters/mail/mailer';

/** To the admins: a webhook that only failed for days was switched off. */
export function disabledMail(input: {
  type: string;
  url: string;
  hours: number;
  publicUrl: string;
}): Omit<MailMessage, 'to'> {
  const days = Math.round((input.hours / 24) * 10) / 10;
  return {
    template: 'webhook_disabled',
    subject: `Webhook „${input.type}“ abgeschaltet`,
    text: [
      'Guten Tag,',
      '',
      `der Webhook „${input.type}“ an ${input.url} wurde abgeschaltet: seit ${days} Tagen ist jede Zustellung fehlgeschlagen.`,
      'Das Zustellprotokoll zeigt die Antworten des Empfängers. Sobald der Empfänger wieder erreichbar ist, schalten Sie den Webhook in der Verwaltung wieder ein.',
      '',
      `${input.publicUrl.replace(/\/+$/, '')}/admin`,
    ].join('\n'),
  };
}
