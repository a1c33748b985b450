/**
 * Reference data for the German demo data set: real statutory insurers, real cities with
 * their postcode ranges and area codes, campaigns and phrases. Only the people are invented.
 */

export const DEMO_DOMAIN = 'sprechstunde.demo';

/**
 * Statutory health insurers (gesetzliche Krankenkassen) with their Institutionskennzeichen.
 * Every number passes the IK check digit (Luhn over digits 3 to 8); weights roughly follow
 * membership so the big ones show up more often.
 */
export const INSURERS: readonly { name: string; ikNumber: string; weight: number }[] = [
  { name: 'Techniker Krankenkasse', ikNumber: '101575519', weight: 22 },
  { name: 'BARMER', ikNumber: '104940005', weight: 17 },
  { name: 'DAK-Gesundheit', ikNumber: '105830016', weight: 11 },
  { name: 'AOK Bayern', ikNumber: '108310400', weight: 9 },
  { name: 'AOK Baden-Württemberg', ikNumber: '108018007', weight: 8 },
  { name: 'AOK PLUS', ikNumber: '107299005', weight: 6 },
  { name: 'AOK Nordost', ikNumber: '109519005', weight: 5 },
  { name: 'AOK Niedersachsen', ikNumber: '102114819', weight: 5 },
  { name: 'AOK Rheinland/Hamburg', ikNumber: '104212505', weight: 5 },
  { name: 'AOK NordWest', ikNumber: '103411401', weight: 5 },
  { name: 'AOK Hessen', ikNumber: '105313145', weight: 4 },
  { name: 'IKK classic', ikNumber: '107202793', weight: 5 },
  { name: 'KKH Kaufmännische Krankenkasse', ikNumber: '102171012', weight: 4 },
  { name: 'hkk Krankenkasse', ikNumber: '103170002', weight: 3 },
  { name: 'HEK – Hanseatische Krankenkasse', ikNumber: '101570104', weight: 2 },
  { name: 'SBK Siemens-Betriebskrankenkasse', ikNumber: '108433248', weight: 3 },
  { name: 'mhplus Krankenkasse', ikNumber: '108035612', weight: 2 },
  { name: 'Knappschaft', ikNumber: '109905003', weight: 3 },
  { name: 'BIG direkt gesund', ikNumber: '103501080', weight: 1 },
  { name: 'Mobil Krankenkasse', ikNumber: '103523440', weight: 2 },
];

/**
 * Invoice addresses of the demo insurers (invoices to insurers carry the payer's
 * address and go out as XRechnung). Streets and postcodes stand for each insurer's head office
 * as far as known; they are demo data, not a directory: a practice records the address its
 * insurers name for invoices. Invoice mail goes to the demo domain, never to the insurer.
 */
export const INSURER_ADDRESSES: Readonly<
  Record<string, { street: string; postalCode: string; city: string }>
> = {
  'Techniker Krankenkasse': {
    street: 'Bramfelder Straße 140',
    postalCode: '22305',
    city: 'Hamburg',
  },
  BARMER: { street: 'Lichtscheider Straße 89', postalCode: '42285', city: 'Wuppertal' },
  'DAK-Gesundheit': { street: 'Nagelsweg 27–31', postalCode: '20097', city: 'Hamburg' },
  'AOK Bayern': { street: 'Carl-Wery-Straße 28', postalCode: '81739', city: 'München' },
  'AOK Baden-Württemberg': { street: 'Presselstraße 19', postalCode: '70191', city: 'Stuttgart' },
  'AOK PLUS': { street: 'Sternplatz 7', postalCode: '01067', city: 'Dresden' },
  'AOK Nordost': { street: 'Wilhelmstraße 1', postalCode: '10963', city: 'Berlin' },
  'AOK Niedersachsen': { street: 'Hildesheimer Straße 273', postalCode: '30519', city: 'Hannover' },
  'AOK Rheinland/Hamburg': { street: 'Kasernenstraße 61', postalCode: '40213', city: 'Düsseldorf' },
  'AOK NordWest': { street: 'Kopenhagener Straße 1', postalCode: '44269', city: 'Dortmund' },
  'AOK Hessen': { street: 'Basler Straße 2', postalCode: '61352', city: 'Bad Homburg' },
  'IKK classic': { street: 'Tannenstraße 4b', postalCode: '01099', city: 'Dresden' },
  'KKH Kaufmännische Krankenkasse': {
    street: 'Karl-Wiechert-Allee 61',
    postalCode: '30625',
    city: 'Hannover',
  },
  'hkk Krankenkasse': { street: 'Martinistraße 26', postalCode: '28195', city: 'Bremen' },
  'HEK – Hanseatische Krankenkasse': {
    street: 'Wandsbeker Zollstraße 86–90',
    postalCode: '22041',
    city: 'Hamburg',
  },
  'SBK Siemens-Betriebskrankenkasse': {
    street: 'Heimeranstraße 31',
    postalCode: '80339',
    city: 'München',
  },
  'mhplus Krankenkasse': { street: 'Franckstraße 8', postalCode: '71636', city: 'Ludwigsburg' },
  Knappschaft: { street: 'Knappschaftstraße 1', postalCode: '44799', city: 'Bochum' },
  'BIG direkt gesund': { street: 'Rheinische Straße 1', postalCode: '44137', city: 'Dortmund' },
  'Mobil Krankenkasse': { street: 'Hühnerposten 2', postalCode: '20097', city: 'Hamburg' },
};

/** The invoice address of a campaign's sponsor (invented companies). */
export const CAMPAIGN_ADDRESSES: Readonly<
  Record<string, { street: string; postalCode: string; city: string }>
> = {
  'fruehjahr-2026': { street: 'Friedrichstraße 120', postalCode: '10117', city: 'Berlin' },
  'betrieb-gesund': { street: 'Am Werkstor 5', postalCode: '44147', city: 'Dortmund' },
  newsletter: { street: 'Invalidenstraße 12', postalCode: '10115', city: 'Berlin' },
  'herbst-2025': { street: 'Marienplatz 3', postalCode: '80331', city: 'München' },
};

/**
 * The demo practice: what the imprint, the privacy notice, the invoices and the
 * e-mails name. Invented (the register and tax numbers too); a real installation's superadmin
 * replaces them on /admin/practice.
 */
export const DEMO_PRACTICE = {
  name: 'Sprechstunde Gesundheitscoaching GmbH',
  street: 'Invalidenstraße 12',
  postalCode: '10115',
  city: 'Berlin',
  email: `praxis@${DEMO_DOMAIN}`,
  phone: '+49 30 12345670',
  managingPerson: 'Dr. med. Anna Beispiel (Geschäftsführerin)',
  registerCourt: 'Amtsgericht Charlottenburg',
  registerNumber: 'HRB 234567 B',
  vatId: 'DE123456789',
  taxNumber: '27/123/45678',
  iban: 'DE02120300000000202051',
  dpoName: 'Jonas Datenschutz, Datenschutz Beispiel GmbH',
  dpoEmail: `datenschutz@${DEMO_DOMAIN}`,
  supervisoryAuthority:
    'Berliner Beauftragte für Datenschutz und Informationsfreiheit, Alt-Moabit 59–61, 10555 Berlin, www.datenschutz-berlin.de',
} as const;

export const CAMPAIGNS: readonly {
  code: string;
  name: string;
  description: string;
  startsAt: string | null;
  endsAt: string | null;
  active: boolean;
  /** Share of new clients that come through this campaign. */
  weight: number;
  /** A sponsoring employer pays for these clients. */
  sponsored: boolean;
}[] = [
  {
    code: 'fruehjahr-2026',
    name: 'Frühjahrsaktion 2026',
    description: 'Mit Hausarztpraxen: Gesundheitscoaching für Menschen mit Diabetes Typ 2.',
    startsAt: '2026-03-01T00:00:00+01:00',
    endsAt: null,
    active: true,
    weight: 30,
    sponsored: false,
  },
  {
    code: 'betrieb-gesund',
    name: 'Betrieb gesund',
    description: 'Betriebliches Gesundheitsmanagement: Der Arbeitgeber übernimmt die Kosten.',
    startsAt: '2025-10-01T00:00:00+02:00',
    endsAt: null,
    active: true,
    weight: 20,
    sponsored: true,
  },
  {
    code: 'newsletter',
    name: 'Newsletter',
    description: 'Anmeldungen über den monatlichen Newsletter.',
    startsAt: null,
    endsAt: null,
    active: true,
    weight: 25,
    sponsored: false,
  },
  {
    code: 'herbst-2025',
    name: 'Herbstaktion 2025',
    description: 'Abgeschlossene Aktion mit Apotheken in Bayern.',
    startsAt: '2025-09-01T00:00:00+02:00',
    endsAt: '2025-11-30T23:59:59+01:00',
    active: false,
    weight: 0,
    sponsored: false,
  },
];

/** Real cities with their postcode range (PLZ) and area code (Vorwahl); weight ~ population. */
export const CITIES: readonly {
  name: string;
  plz: readonly [number, number];
  areaCode: string;
  weight: number;
}[] = [
  { name: 'Berlin', plz: [10115, 14199], areaCode: '030', weight: 37 },
  { name: 'Hamburg', plz: [20095, 22769], areaCode: '040', weight: 19 },
  { name: 'München', plz: [80331, 81929], areaCode: '089', weight: 15 },
  { name: 'Köln', plz: [50667, 51149], areaCode: '0221', weight: 11 },
  { name: 'Frankfurt am Main', plz: [60306, 60599], areaCode: '069', weight: 8 },
  { name: 'Stuttgart', plz: [70173, 70629], areaCode: '0711', weight: 6 },
  { name: 'Düsseldorf', plz: [40210, 40629], areaCode: '0211', weight: 6 },
  { name: 'Leipzig', plz: [4103, 4357], areaCode: '0341', weight: 6 },
  { name: 'Dortmund', plz: [44135, 44388], areaCode: '0231', weight: 6 },
  { name: 'Essen', plz: [45127, 45359], areaCode: '0201', weight: 6 },
  { name: 'Bremen', plz: [28195, 28779], areaCode: '0421', weight: 5 },
  { name: 'Dresden', plz: [1067, 1328], areaCode: '0351', weight: 5 },
  { name: 'Hannover', plz: [30159, 30669], areaCode: '0511', weight: 5 },
  { name: 'Nürnberg', plz: [90402, 90491], areaCode: '0911', weight: 5 },
  { name: 'Duisburg', plz: [47051, 47279], areaCode: '0203', weight: 4 },
  { name: 'Bochum', plz: [44787, 44894], areaCode: '0234', weight: 3 },
  { name: 'Bonn', plz: [53111, 53229], areaCode: '0228', weight: 3 },
  { name: 'Münster', plz: [48143, 48167], areaCode: '0251', weight: 3 },
  { name: 'Karlsruhe', plz: [76131, 76229], areaCode: '0721', weight: 3 },
  { name: 'Mannheim', plz: [68159, 68309], areaCode: '0621', weight: 3 },
  { name: 'Augsburg', plz: [86150, 86199], areaCode: '0821', weight: 3 },
  { name: 'Freiburg im Breisgau', plz: [79098, 79117], areaCode: '0761', weight: 2 },
  { name: 'Kiel', plz: [24103, 24159], areaCode: '0431', weight: 2 },
  { name: 'Rostock', plz: [18055, 18147], areaCode: '0381', weight: 2 },
  { name: 'Regensburg', plz: [93047, 93059], areaCode: '0941', weight: 2 },
  { name: 'Würzburg', plz: [97070, 97084], areaCode: '0931', weight: 1 },
  { name: 'Erfurt', plz: [99084, 99099], areaCode: '0361', weight: 2 },
  { name: 'Magdeburg', plz: [39104, 39130], areaCode: '0391', weight: 2 },
  { name: 'Mainz', plz: [55116, 55131], areaCode: '06131', weight: 2 },
  { name: 'Potsdam', plz: [14467, 14482], areaCode: '0331', weight: 2 },
];

/** German mobile prefixes (without the leading 0). */
export const MOBILE_PREFIXES = [
  '151',
  '152',
  '157',
  '159',
  '160',
  '162',
  '163',
  '170',
  '171',
  '172',
  '173',
  '174',
  '175',
  '176',
  '177',
  '178',
  '179',
] as const;

export const DIAGNOSES = [
  'Diabetes mellitus Typ 2',
  'Arterielle Hypertonie',
  'Adipositas Grad I',
  'Chronische Rückenschmerzen',
  'Depressive Episode, leicht',
  'Koronare Herzkrankheit',
  'COPD',
  'Asthma bronchiale',
  'Post-COVID-Syndrom',
  'Erschöpfungssyndrom',
  'Fettstoffwechselstörung',
  'Schlafstörung',
] as const;

export const HOW_DID_YOU_HEAR = [
  'Hausarztpraxis',
  'Krankenkasse',
  'Internetsuche',
  'Freunde oder Familie',
  'Arbeitgeber',
  'Newsletter',
  'Social Media',
  'Apotheke',
] as const;

export const CLIENT_NOTES = [
  'Bevorzugt Termine am Vormittag.',
  'Möchte per E-Mail an Termine erinnert werden.',
  'Hat Erfahrung mit Videoterminen.',
  'Schichtdienst – Termine bitte flexibel planen.',
  'Braucht eine kurze Einführung in die Videotechnik.',
  'Ziel: mehr Bewegung im Alltag.',
  'Ziel: Ernährung umstellen.',
  'Ziel: Stress reduzieren, besser schlafen.',
] as const;

export const REJECTION_NOTES: Record<string, string> = {
  not_reachable: 'Nach drei Anrufversuchen nicht erreicht.',
  not_eligible: 'Voraussetzungen der Krankenkasse nicht erfüllt.',
  no_interest: 'Kein Interesse mehr nach dem Erstgespräch.',
  declined_contract: 'Teilnahmevereinbarung nicht unterschrieben.',
  other: 'Umzug ins Ausland.',
};

/** The staff accounts; coaches get coach records as well. */
export const STAFF = [
  { key: 'superadmin', role: 'SUPERADMIN', label: 'Superadmin' },
  { key: 'admin', role: 'ADMIN', label: 'Admin' },
  { key: 'onboarding', role: 'ONBOARDING_MANAGER', label: 'Onboarding-Management' },
] as const;

/**
 * Five coaches: title, and the weekly hours (Europe/Berlin wall time) they are available;
 * appointments are only placed inside these hours.
 */
export const COACH_PLANS: readonly {
  title: string | null;
  sex: 'female' | 'male';
  takesInitialAppointments: boolean;
  blocks: readonly { days: readonly Weekday[]; start: number; end: number }[];
}[] = [
  {
    title: 'Dr. med.',
    sex: 'female',
    takesInitialAppointments: true,
    blocks: [{ days: ['MO', 'TU', 'WE', 'TH', 'FR'], start: 8, end: 13 }],
  },
  {
    title: null,
    sex: 'male',
    takesInitialAppointments: true,
    blocks: [
      { days: ['MO', 'WE', 'FR'], start: 9, end: 17 },
      { days: ['TU'], start: 13, end: 19 },
    ],
  },
  {
    title: 'Dipl.-Psych.',
    sex: 'female',
    takesInitialAppointments: true,
    blocks: [{ days: ['TU', 'WE', 'TH'], start: 8, end: 16 }],
  },
  {
    title: null,
    sex: 'female',
    takesInitialAppointments: false,
    blocks: [
      { days: ['MO', 'TU', 'TH'], start: 12, end: 20 },
      { days: ['FR'], start: 8, end: 12 },
    ],
  },
  {
    title: 'M.Sc.',
    sex: 'male',
    takesInitialAppointments: true,
    blocks: [{ days: ['MO', 'TU', 'WE', 'TH', 'FR'], start: 10, end: 16 }],
  },
];

export type Weekday = 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';
export const WEEKDAYS: readonly Weekday[] = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

/** Default durations in minutes (docs/domain.md: suggested values). */
export const DURATIONS = {
  initial: 30,
  first: 60,
  followup: 50,
  'first-arztkonsultation': 30,
  'followup-arztkonsultation': 30,
  adhoc: 20,
} as const;
