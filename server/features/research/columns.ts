import { APPOINTMENT_TYPES } from '../../../shared/contract/enums';

/**
 * The columns of both CSV files, each with what the codebook says about it (German and
 * English). The header rows and the codebook are made from this one list.
 */
export interface Column {
  name: string;
  type: 'string' | 'integer' | 'boolean' | 'category';
  /**
   * quasi-identifier: describes the person or what an outsider can know of them, so every
   * combination of these is shared by at least k participants; measurement: what the study
   * is about, released as recorded; key: links the files, carries nothing of the person.
   */
  role: 'key' | 'quasi-identifier' | 'measurement';
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
    role: 'key',
    values: '16 hex characters',
    de: 'Pseudonym der Person (HMAC-SHA256 der internen Kennung mit einem getrennt verwahrten Schlüssel); verbindet participants.csv und appointments.csv.',
    en: "The person's pseudonym (HMAC-SHA256 of the internal id with a key kept apart); links participants.csv and appointments.csv.",
  },
  {
    name: 'birth_band',
    type: 'category',
    role: 'quasi-identifier',
    values: 'yyyy-yyyy (5 years, e.g. 1980-1984) | unknown',
    de: `Geburtsjahr in Fünfjahresgruppen; unknown = nicht erfasst. Quasi-Identifikator. ${SUPPRESSED_DE}`,
    en: `Year of birth in 5-year bands; unknown = not recorded. Quasi-identifier. ${SUPPRESSED_EN}`,
  },
  {
    name: 'postal_region',
    type: 'category',
    role: 'quasi-identifier',
    values: '00-99 | unknown',
    de: `Die ersten zwei Ziffern der deutschen Postleitzahl (Leitregion); unknown = keine deutsche fünfstellige PLZ erfasst. Quasi-Identifikator. ${SUPPRESSED_DE}`,
    en: `First two digits of the German postal code (postal region); unknown = no German five-digit code recorded. Quasi-identifier. ${SUPPRESSED_EN}`,
  },
  {
    name: 'client_type',
    type: 'category',
    role: 'quasi-identifier',
    values: 'self | relative',
    de: `self = die Person selbst, relative = angemeldet von einer Angehörigen. Quasi-Identifikator. ${SUPPRESSED_DE}`,
    en: `self = the person themselves, relative = signed up by a relative. Quasi-identifier. ${SUPPRESSED_EN}`,
  },
  {
    name: 'insurer',
    type: 'category',
    role: 'quasi-identifier',
    values: 'insurer name from the maintained list | unknown',
    de: `Krankenkasse (Name, ohne Versichertennummer); unknown = keine erfasst. Quasi-Identifikator. ${SUPPRESSED_DE}`,
    en: `Health insurer (name, no insurance number); unknown = none recorded. Quasi-identifier. ${SUPPRESSED_EN}`,
  },
  {
    name: 'campaign',
    type: 'category',
    role: 'quasi-identifier',
    values: 'campaign code | none',
    de: `Kampagne, über die die Person kam; none = keine. Quasi-Identifikator. ${SUPPRESSED_DE}`,
    en: `Campaign the person came through; none = none. Quasi-identifier. ${SUPPRESSED_EN}`,
  },
  {
    name: 'paid_by_sponsor',
    type: 'boolean',
    role: 'quasi-identifier',
    values: 'true | false',
    de: `Die Begleitung bezahlt ein Sponsor. Quasi-Identifikator. ${SUPPRESSED_DE}`,
    en: `A sponsor pays for the coaching. Quasi-identifier. ${SUPPRESSED_EN}`,
  },
  {
    name: 'mental_stress_indicator',
    type: 'integer',
    role: 'measurement',
    values: '0-10',
    de: 'Selbst eingeschätzte Belastung (0 = keine, 10 = höchste); leer = nicht erfasst.',
    en: 'Self-rated stress (0 = none, 10 = highest); blank = not recorded.',
  },
  ...APPOINTMENT_TYPES.map((type): Column => ({
    name: countColumnOf(type),
    type: 'integer',
    role: 'measurement',
    values: '0-',
    de: `Anzahl der nicht abgesagten Termine der Art „${type}“ (stattgefunden, versäumt oder noch bevorstehend).`,
    en: `Number of appointments of type "${type}" that were not cancelled (held, missed or still ahead).`,
  })),
  {
    name: 'no_shows',
    type: 'integer',
    role: 'measurement',
    values: '0-',
    de: 'Anzahl der Termine, zu denen die Person nicht erschien.',
    en: 'Number of appointments the person did not attend.',
  },
  {
    name: 'cancellations',
    type: 'integer',
    role: 'measurement',
    values: '0-',
    de: 'Anzahl der abgesagten Termine.',
    en: 'Number of cancelled appointments.',
  },
  {
    name: 'sessions_closed',
    type: 'boolean',
    role: 'quasi-identifier',
    values: 'true | false',
    de: `Die Begleitung ist abgeschlossen. Quasi-Identifikator (mit days_to_sessions_closed). ${SUPPRESSED_DE}`,
    en: `The coaching has been closed. Quasi-identifier (with days_to_sessions_closed). ${SUPPRESSED_EN}`,
  },
  {
    name: 'days_to_sessions_closed',
    type: 'category',
    role: 'quasi-identifier',
    values: '0-89 | 90-179 | 180-364 | 365+',
    de: `Tage von der Aufnahme (Registrierung) bis zum Abschluss der Begleitung (Kalendertage, Europe/Berlin) in Gruppen, denn die genaue Zahl ist fast einmalig; leer bei sessions_closed = false. Quasi-Identifikator (mit sessions_closed). ${SUPPRESSED_DE}`,
    en: `Days from enrolment (sign-up) to the close of the coaching (calendar days, Europe/Berlin) in bands, as the exact number is nearly unique; blank when sessions_closed = false. Quasi-identifier (with sessions_closed). ${SUPPRESSED_EN}`,
  },
];

export const APPOINTMENT_COLUMNS: readonly Column[] = [
  {
    name: 'pseudonym',
    type: 'string',
    role: 'key',
    values: '16 hex characters',
    de: 'Pseudonym der Person wie in participants.csv.',
    en: "The person's pseudonym as in participants.csv.",
  },
  {
    name: 'seq',
    type: 'integer',
    role: 'measurement',
    values: '1-',
    de: 'Laufende Nummer des Termins der Person, nach Beginn geordnet.',
    en: "Running number of the person's appointment, in order of start.",
  },
  {
    name: 'day_offset',
    type: 'integer',
    role: 'measurement',
    values: 'days (may be negative)',
    de: 'Tage von der Aufnahme (Registrierung der Person) bis zum Termin (Kalendertage, Europe/Berlin); ersetzt das Datum.',
    en: "Days from enrolment (the person's sign-up) to the appointment (calendar days, Europe/Berlin); replaces the date.",
  },
  {
    name: 'appointment_type',
    type: 'category',
    role: 'measurement',
    values: APPOINTMENT_TYPES.join(' | '),
    de: 'Art des Termins: initial = Erstgespräch, first = erster Coaching-Termin, followup = Folgetermin, *-arztkonsultation = mit ärztlicher Konsultation, adhoc = außerplanmäßig.',
    en: 'Kind of appointment: initial = first contact, first = first coaching session, followup = follow-up, *-arztkonsultation = with a medical consultation, adhoc = unscheduled.',
  },
  {
    name: 'outcome',
    type: 'category',
    role: 'measurement',
    values: 'held | no_show | cancelled | scheduled',
    de: 'held = stattgefunden, no_show = nicht erschienen, cancelled = abgesagt, scheduled = liegt nach dem Export.',
    en: 'held = took place, no_show = not attended, cancelled = cancelled, scheduled = after the export.',
  },
  {
    name: 'duration_min',
    type: 'integer',
    role: 'measurement',
    values: 'minutes',
    de: 'Geplante Dauer in Minuten.',
    en: 'Planned duration in minutes.',
  },
];

export const CODEBOOK_HEADER = [
  'file',
  'variable',
  'type',
  'role',
  'values',
  'description_de',
  'description_en',
];

/** The codebook's rows: every column of both files. */
export const codebookRows = (): string[][] => [
  ...PARTICIPANT_COLUMNS.map((c) => [
    'participants.csv',
    c.name,
    c.type,
    c.role,
    c.values,
    c.de,
    c.en,
  ]),
  ...APPOINTMENT_COLUMNS.map((c) => [
    'appointments.csv',
    c.name,
    c.type,
    c.role,
    c.values,
    c.de,
    c.en,
  ]),
];
