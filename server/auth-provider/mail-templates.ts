/** The provider's e-mails, in German (protocol §3.6 passcode_confirmation templates). */
export type PasscodeTemplate =
  | 'login'
  | 'email_verification'
  | 'recovery'
  | 'email_login_attempted'
  | 'email_registration_attempted';

/** Templates that carry no code: they answer an unknown or taken address (no enumeration). */
export const CODELESS: ReadonlySet<PasscodeTemplate> = new Set([
  'email_login_attempted',
  'email_registration_attempted',
]);

const footer = `\n\nHaben Sie das nicht angefordert? Dann können Sie diese E-Mail ignorieren.\n\nIhr Sprechstunde-Team`;

export function passcodeMail(
  template: PasscodeTemplate,
  code: string,
  ttlSeconds: number,
  publicUrl: string,
): { subject: string; text: string } {
  const minutes = Math.round(ttlSeconds / 60);
  const validity = `Der Code ist ${minutes} Minuten gültig.`;
  switch (template) {
    case 'login':
      return {
        subject: `Ihr Einmalcode für Sprechstunde: ${code}`,
        text: `Ihr Einmalcode für Sprechstunde: ${code}\n\nGeben Sie den Code auf der Anmeldeseite ein. ${validity}${footer}`,
      };
    case 'email_verification':
      return {
        subject: `Bestätigen Sie Ihre E-Mail-Adresse: ${code}`,
        text: `Ihr Einmalcode für Sprechstunde: ${code}\n\nMit diesem Code bestätigen Sie Ihre E-Mail-Adresse und schließen die Registrierung ab. ${validity}${footer}`,
      };
    case 'recovery':
      return {
        subject: `Passwort zurücksetzen: ${code}`,
        text: `Ihr Einmalcode für Sprechstunde: ${code}\n\nMit diesem Code können Sie ein neues Passwort festlegen. ${validity}${footer}`,
      };
    case 'email_login_attempted':
      return {
        subject: 'Anmeldeversuch bei Sprechstunde',
        text: `Jemand hat versucht, sich mit dieser E-Mail-Adresse bei Sprechstunde anzumelden. Zu dieser Adresse gibt es kein Konto.\n\nMöchten Sie ein Konto anlegen? Registrieren Sie sich unter ${publicUrl}.${footer}`,
      };
    case 'email_registration_attempted':
      return {
        subject: 'Registrierungsversuch bei Sprechstunde',
        text: `Jemand hat versucht, mit dieser E-Mail-Adresse ein Konto bei Sprechstunde anzulegen. Zu dieser Adresse gibt es bereits ein Konto.\n\nMelden Sie sich einfach unter ${publicUrl} an.${footer}`,
      };
  }
}
