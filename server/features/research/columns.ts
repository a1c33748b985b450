import { APPOINTMENT_TYPES } from '../../../shared/contract/enums';

/**
 * The columns of both CSV files, each with what the codebook says about it (German and
 * English). The header rows and the codebook are made from this one list.
 */
export interface Column {
  name: string;
  type: 'string' | 'integer' | 'boolean' | 'category';
  values: string;
  de: string;
  en: string;
}

const SUPPRESSED_DE = 'Leer = zur k-Anonymität unterdrückt.';
const SUPPRESSED_EN = 'Blank = suppressed for k-anonymity.';

/** `first-arztkonsultation` → `appointments_first_arztkonsultation`. */
export const countColumnOf = (type: string) => `appointments_${type.replace(/-/g, '_')}`;

export const PARTICIPANT_COLUMNS: readonly Column[] = [
  {
    name: 'pseudonym',
    type: 'string',
    values: '16 hex characters',
    de: 'Pseudonym der Person (HMAC-SHA256 der internen Kennung mit einem getrennt verwahrten Schlüssel); verbindet participants.csv und appointments.csv.',
    en: "The person's pseudonym (HMAC-SHA256 of the internal id with a key kept apart); links participants.csv and appointments.csv.",
  },
  {
    name: 'birth_band',
    type: 'category',
    values: 'yyyy-yyyy (5 years, e.g. 1980-1984) | unknown',
    de: `Geburtsjahr in Fünfjahresgruppen; unknown = nicht erfasst. Quasi-Identifikator. ${SUPPRESSED_DE}`,
    en: `Year of birth in 5-year bands; unknown = not recorded. Quasi-identifier. ${SUPPRESSED_EN}`,
  },
  {
    name: 'postal_region',
    type: 'category',
    values: '00-99 | unknown',
    de: `Die ersten zwei Ziffern der deutschen Postleitzahl (Leitregion); unknown = keine deutsche fünfstellige PLZ erfasst. Quasi-Identifikator. ${SUPPRESSED_DE}`,
    en: `First two digits of the German postal code (postal region); unknown = no German five-digit code recorded. Quasi-identifier. ${SUPPRESSED_EN}`,
  },
  {
    name: 'client_type',
    type: 'category',
    values: 'self | relative',
    de: `self = die Person selbst, relative = angemeldet von einer Angehörigen. Quasi-Identifikator. ${SUPPRESSED_DE}`,
    en: `self = the person themselves, relative = signed up by a relative. Quasi-identifier. ${SUPPRESSED_EN}`,
  },
  {
    name: 'insurer',
    type: 'category',
    values: 'insurer name from the maintained list | unknown',
    de: `Krankenkasse (Name, ohne Versichertennummer); unknown = keine erfasst. Quasi-Identifikator. ${SUPPRESSED_DE}`,
    en: `Health insurer (name, no insurance number); unknown = none recorded. Quasi-identifier. ${SUPPRESSED_EN}`,
  },
  {
    name: 'campaign',
    type: 'category',
    values: 'campaign code',
    de: 'Kampagne, über die die Person kam; leer = keine.',
    en: 'Campaign the person came through; blank = none.',
  },
  {
    name: 'paid_by_sponsor',
    type: 'boolean',
    values: 'true | false',
    de: 'Die Begleitung bezahlt ein Sponsor.',
    en: 'A sponsor pays for the coaching.',
  },
  {
    name: 'mental_stress_indicator',
    type: 'integer',
    values: '0-10',
    de: 'Selbst eingeschätzte Belastung (0 = keine, 10 = höchste); leer = nicht erfasst.',
    en: 'Self-rated stress (0 = none, 10 = highest); blank = not recorded.',
  },
  ...APPOINTMENT_TYPES.map(
    (type): Column => ({
      name: countColumnOf(type),
      type: 'integer',
      values: '0-',
      de: `Anzahl der nicht abgesagten Termine der Art „${type}“ (stattgefunden, versäumt oder noch bevorstehend).`,
      en: `Number of appointments of type "${type}" that were not cancelled (held, missed or still ahead).`,
    }),
  ),
  {
    name: 'no_shows',
    type: 'integer',
    values: '0-',
    de: 'Anzahl der Termine, zu denen die Person nicht erschien.',
    en: 'Number of appointments the person did not attend.',
  },
  {
    name: 'cancellations',
    type: 'integer',
    values: '0-',
    de: 'Anzahl der abgesagten Termine.',
    en: 'Number of cancelled appointments.',
  },
  {
    name: 'sessions_closed',
    type: 'boolean',
    values: 'true | false',
    de: 'Die Begleitung ist abgeschlossen.',
    en: 'The coaching has been closed.',
  },
  {
    name: 'days_to_sessions_closed',
    type: 'integer',
    values: 'days',
    de: 'Tage von der Aufnahme (Registrierung) bis zum Abschluss der Begleitung (Kalendertage, Europe/Berlin); leer = nicht abgeschlossen.',
    en: 'Days from enrolment (sign-up) to the close of the coaching (calendar days, Europe/Berlin); blank = not closed.',
  },
];

export const APPOINTMENT_COLUMNS: readonly Column[] = [
  {
    name: 'pseudonym',
    type: 'string',
    values: '16 hex characters',
    de: 'Pseudonym der Person wie in participants.csv.',
    en: 'The person\'s pseudonym as in participants.csv.',
  },
  {
    name: 'seq',
    type: 'integer',
    values: '1-',
    de: 'Laufende Nummer des Termins der Person, nach Beginn geordnet.',
    en: "Running number of the person's appointment, in order of start.",
  },
  {
    name: 'day_offset',
    type: 'integer',
    values: 'days (may be negative)',
    de: 'Tage von der Aufnahme (Registrierung der Person) bis zum Termin (Kalendertage, Europe/Berlin); ersetzt das Datum.',
    en: "Days from enrolment (the person's sign-up) to the appointment (calendar days, Europe/Berlin); replaces the date.",
  },
  {
    name: 'appointment_type',
    type: 'category',
    values: APPOINTMENT_TYPES.join(' | '),
    de: 'Art des Termins: initial = Erstgespräch, first = erster Coaching-Termin, followup = Folgetermin, *-arztkonsultation = mit ärztlicher Konsultation, adhoc = außerplanmäßig.',
    en: 'Kind of appointment: initial = first contact, first = first coaching session, followup = follow-up, *-arztkonsultation = with a medical consultation, adhoc = unscheduled.',
  },
  {
    name: 'outcome',
    type: 'category',
    values: 'held | no_show | cancelled | scheduled',
    de: 'held = stattgefunden, no_show = nicht erschienen, cancelled = abgesagt, scheduled = liegt nach dem Export.',
    en: 'held = took place, no_show = not attended, cancelled = cancelled, scheduled = after the export.',
  },
  {
    name: 'duration_min',
    type: 'integer',
    values: 'minutes',
    de: 'Geplante Dauer in Minuten.',
    en: 'Planned duration in minutes.',
  },
];

export const CODEBOOK_HEADER = ['file', 'variable', 'type', 'values', 'description_de', 'description_en'];

/** The codebook's rows: every column of both files. */
export const codebookRows = (): string[][] => [
  ...PARTICIPANT_COLUMNS.map((c) => ['participants.csv', c.name, c.type, c.values, c.de, c.en]),
  ...APPOINTMENT_COLUMNS.map((c) => ['appointments.csv', c.name, c.type, c.values, c.de, c.en]),
];
