import type { SeedSummary } from './seed';

const ROLE_LABELS: Record<string, string> = {
  SUPERADMIN: 'Superadmin',
  ADMIN: 'Admin',
  ONBOARDING_MANAGER: 'Onboarding',
  COACH: 'Coach',
  NONE: 'Klient:in',
};

const n = (value: number) => value.toLocaleString('de-DE');

/** The German text `npm run seed` prints: what was written and how to sign in. */
export function formatSeedSummary(
  summary: SeedSummary,
  publicUrl = 'http://localhost:3000',
): string {
  const c = summary.counts;
  const pending = (count: number) => (count > 0 ? n(count) : '– (Tabelle folgt)');
  const lines = [
    `Demodaten angelegt in ${n(summary.durationMs)} ms:`,
    `  Benutzer:innen        ${n(c.users)}`,
    `  Coaches               ${n(c.coaches)}`,
    `  Klient:innen          ${n(c.clients)}`,
    `  Termine               ${n(c.appointments)} (${n(c.pastAppointments)} vergangen, ${n(c.appointments - c.pastAppointments)} künftig, ${n(c.cancelledAppointments)} abgesagt)`,
    `  Krankenkassen         ${n(c.insurers)}`,
    `  Kampagnen             ${n(c.campaigns)}`,
    `  Verfügbarkeiten       ${pending(c.availability)}`,
    `  Abrechnungsregeln     ${pending(c.billingRules)}`,
    `  Abrechnungspositionen ${pending(c.billableItems)}`,
    `  Signierte Dokumente   ${n(c.signedDocuments)}`,
    `  Rechnungen            ${n(c.invoices)}`,
    `  Ereignisse            ${n(c.events)}`,
    '',
    'So melden Sie sich an',
    '---------------------',
    `Öffnen Sie ${publicUrl}/login und melden Sie sich mit einer dieser E-Mail-Adressen an:`,
    '',
  ];
  const width = Math.max(...summary.accounts.map((a) => a.email.length));
  for (const account of summary.accounts) {
    const label = (ROLE_LABELS[account.role] ?? account.role).padEnd(11);
    lines.push(`  ${label} ${account.email.padEnd(width)}  ${account.name}`);
  }
  lines.push(
    '',
    'Die Konten haben noch kein Passwort: Geben Sie die E-Mail-Adresse ein und wählen Sie',
    '„Einmalcode“. Der sechsstellige Code geht an diese Adresse und steht im',
    `Entwicklungs-Postfach unter ${publicUrl}/dev/mailbox.`,
    'Als Klient:in melden Sie sich über /client-signup/login an.',
  );
  return lines.join('\n');
}

/** What `npm start` prints once it listens: where the app is, and where the codes arrive. */
export function formatStartBanner(
  url: string,
  options: { mailbox: boolean; seeded: SeedSummary | null },
): string {
  const lines = ['', `Sprechstunde läuft: ${url}`];
  if (options.mailbox) lines.push(`Entwicklungs-Postfach (Anmeldecodes): ${url}/dev/mailbox`);
  if (options.seeded) lines.push('', formatSeedSummary(options.seeded, url));
  else
    lines.push(
      'Demo-Konten: README.md, Abschnitt „Demo sign-in“ (npm run seed -- --force legt die Demodaten neu an).',
    );
  return `${lines.join('\n')}\n`;
}
