/**
 * Phrases for the demo's clinical documents: short, plausible German notes a health coach
 * writes after a session (SOAP) and at intake (Patientenkarte). Invented; no real cases.
 */

export const SUBJECTIVE = [
  'Berichtet, in der letzten Woche an vier Tagen spazieren gegangen zu sein; fühlt sich wacher.',
  'Schläft seit dem letzten Termin besser, wacht aber noch gegen 4 Uhr auf.',
  'Hatte eine stressige Woche im Beruf, die Abendroutine ist dabei untergegangen.',
  'Erzählt stolz, dass sie das Frühstück umgestellt hat; Heißhunger am Nachmittag seltener.',
  'Klagt über Rückenschmerzen nach langem Sitzen, Dehnübungen nur zweimal gemacht.',
  'Blutzuckerwerte laut Tagebuch stabiler, nach dem Abendessen noch teils erhöht.',
  'Fühlt sich durch die Pflege der Mutter stark belastet, wenig Zeit für sich.',
  'Hat die Atemübung täglich gemacht und empfindet sie als hilfreich vor dem Einschlafen.',
] as const;

export const OBJECTIVE = [
  'Wirkt im Gespräch ruhig und zugewandt; Schrittzähler im Schnitt 6.800 Schritte/Tag.',
  'Gewicht laut eigener Messung 1,2 kg weniger als vor vier Wochen.',
  'Blutdruck-Protokoll der Woche: Mittelwert 138/86 mmHg.',
  'PSS-10: 21 Punkte (zuvor 26).',
  'Schlaftagebuch vollständig geführt, Einschlafdauer meist unter 30 Minuten.',
  'Spricht schneller als sonst, wirkt angespannt.',
] as const;

export const ASSESSMENT = [
  'Gute Fortschritte bei der Bewegung, Motivation hoch.',
  'Ziel Ernährung teilweise erreicht; Rückfälle in Stressphasen.',
  'Belastung weiterhin hoch, Ressourcen im Alltag begrenzt.',
  'Schlafhygiene verbessert sich schrittweise.',
  'Selbstbeobachtung gelingt gut, Zusammenhang Stress und Essverhalten erkannt.',
] as const;

export const PLAN = [
  'Spaziergänge beibehalten, zusätzlich zweimal pro Woche Treppe statt Aufzug.',
  'Abendroutine mit fester Bildschirmpause ab 21 Uhr erproben.',
  'Ernährungstagebuch eine weitere Woche führen, Fokus auf Zwischenmahlzeiten.',
  'Progressive Muskelentspannung nach Audioanleitung dreimal pro Woche.',
  'Gespräch mit der Hausärztin über die Blutdruckwerte anregen.',
] as const;

export const HOMEWORK = [
  'Schrittzähler weiter nutzen und Wochenwerte notieren.',
  'Drei Situationen mit Heißhunger aufschreiben: Uhrzeit, Auslöser, Gefühl.',
  'Atemübung 4-7-8 jeden Abend.',
  'Einkaufsliste für die Woche vorab planen.',
] as const;

export const NEXT_STEPS = [
  'Folgetermin in zwei Wochen.',
  'Nächster Termin: Ziele für die kommenden vier Wochen festlegen.',
  'Im nächsten Termin Schlaftagebuch gemeinsam auswerten.',
] as const;

/** The reason for coaching (Anlass), by the client's diagnosis where there is one. */
export const REASONS: Readonly<Record<string, string>> = {
  'Diabetes mellitus Typ 2':
    'Möchte den Blutzucker durch Ernährung und Bewegung besser einstellen.',
  'Arterielle Hypertonie': 'Überweisung durch die Hausärztin: Lebensstil bei Bluthochdruck.',
  'Adipositas Grad I': 'Möchte dauerhaft Gewicht reduzieren und sich mehr bewegen.',
  'Chronische Rückenschmerzen': 'Sucht Unterstützung, um trotz Rückenschmerzen aktiv zu bleiben.',
  'Depressive Episode, leicht': 'Tagesstruktur und Aktivierung nach einer belastenden Phase.',
  'Koronare Herzkrankheit': 'Nach der Reha: Bewegung und Ernährung im Alltag verankern.',
  COPD: 'Mit der Atemnot im Alltag besser umgehen, Rauchstopp stabilisieren.',
  'Asthma bronchiale': 'Möchte wieder regelmäßig Sport treiben.',
  'Post-COVID-Syndrom': 'Belastung dosieren lernen (Pacing), Erschöpfung verringern.',
  Erschöpfungssyndrom: 'Stress reduzieren, Erholung und Schlaf verbessern.',
  Fettstoffwechselstörung: 'Ernährung umstellen, um die Blutfettwerte zu senken.',
  Schlafstörung: 'Besser ein- und durchschlafen, Grübeln am Abend verringern.',
};
export const DEFAULT_REASON = 'Möchte gesünder leben: mehr Bewegung, weniger Stress.';

export const GOALS = [
  { text: 'An fünf Tagen pro Woche 30 Minuten zügig gehen', horizon: '90d' },
  { text: 'Abends spätestens um 23 Uhr schlafen gehen', horizon: '90d' },
  { text: 'Zwei Portionen Gemüse am Tag', horizon: '90d' },
  { text: 'Gewicht um 5 % reduzieren', horizon: 'long' },
  { text: 'Stress im Beruf besser abgrenzen', horizon: 'long' },
] as const;

export const LIFESTYLE = {
  sleep: ['Schläft 6 bis 7 Stunden, oft unruhig.', 'Einschlafprobleme bei Stress.'],
  activity: ['Überwiegend sitzende Tätigkeit im Büro.', 'Geht am Wochenende gern wandern.'],
  nutrition: ['Isst mittags meist in der Kantine.', 'Viel Kaffee, wenig Wasser.'],
  substances: ['Raucht nicht, trinkt selten Alkohol.', 'Raucht 5 Zigaretten am Tag.'],
} as const;
