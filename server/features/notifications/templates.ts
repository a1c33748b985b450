/**
 * German texts of the appointment messages (e-mail and SMS). Formal address ("Sie"), the
 * project's vocabulary (Termin, Erstgespräch, Videotermin, Meeting-Code, absagen,
 * verschieben), dates and times in Europe/Berlin.
 */
import { inBerlin } from '../../../shared/time';
import { instant, minutesBetween } from '../../time';

const LONG_DATE: Intl.DateTimeFormatOptions = {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
};
const SHORT_DATE: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
};
const CLOCK: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

/** The Berlin wall time of an instant in German, in the given parts. */
const berlin = (instant: string, parts: Intl.DateTimeFormatOptions) =>
  inBerlin(instant).toLocaleString('de-DE', parts);

/** "10:00" */
const clockOf = (instant: string) => berlin(instant, CLOCK);

/** "Montag, 7. Dezember 2026, 10:00 Uhr" */
export const formatWhen = (instant: string) =>
  `${berlin(instant, LONG_DATE)}, ${clockOf(instant)} Uhr`;

/** "Mo., 07.12.2026, 10:00 Uhr" (SMS: short) */
export const formatWhenShort = (instant: string) =>
  `${berlin(instant, SHORT_DATE)}, ${clockOf(instant)} Uhr`;

export const APPOINTMENT_TYPE_NAMES: Record<string, string> = {
  initial: 'Erstgespräch',
  first: 'Ersttermin',
  followup: 'Folgetermin',
  'first-arztkonsultation': 'Ärztliche Konsultation (Ersttermin)',
  'followup-arztkonsultation': 'Ärztliche Konsultation (Folgetermin)',
  adhoc: 'Ad-hoc-Termin',
};

export type MessageKind =
  'booked' | 'rescheduled' | 'cancelled' | 'invitation' | 'reminder_24h' | 'reminder_1h';

/**
 * A reschedule that hands the appointment to another coach: the new coach takes it over (an
 * invitation), the previous coach hands it over (their calendar copy is cancelled).
 */
export type CoachMessageKind = MessageKind | 'taken_over' | 'handed_over';

/** The template key stored with each communication. */
export const templateKey = (kind: CoachMessageKind) =>
  kind === 'invitation' ? 'appointment_invitation' : `appointment_${kind}`;

export interface MessageFacts {
  practice: string;
  typeName: string;
  start: string;
  end: string;
  /** The start before a reschedule (rescheduled only). */
  previousStart?: string | null | undefined;
  clientName: string;
  coachName: string;
  /**
   * When a reschedule changed the coach: the coach before (to the client and the new coach),
   * or after (to the previous coach, whose `coachName` it is then).
   */
  previousCoachName?: string | null | undefined;
  /** The recipient's link to the meeting page. */
  link: string;
  meetingCode: string;
  /** Where the recipient can cancel without signing in (clients only). */
  cancelLink: string | null;
  /** Where the client moves the appointment (after signing in); absent once it is cancelled. */
  rescheduleLink?: string | null | undefined;
  externalMeetingUrl: string | null;
}

const minutes = (f: MessageFacts) => Math.round(minutesBetween(f.start, f.end));

/** A reschedule that kept the time (only the coach changed). */
const sameTime = (f: MessageFacts) =>
  !!f.previousStart && instant(f.previousStart).equals(instant(f.start));

const signature = (f: MessageFacts) => `Freundliche Grüße\nIhr Team von ${f.practice}`;

/** A message's lines, then the meeting's links and the signature. */
const withMeeting = (f: MessageFacts, ...head: string[]) =>
  [...head, '', ...meetingLines(f), '', signature(f)].join('\n');

function meetingLines(f: MessageFacts): string[] {
  return [
    `Zum Videotermin: ${f.link}`,
    `Meeting-Code: ${f.meetingCode}`,
    ...(f.externalMeetingUrl ? [`Link zum Termin: ${f.externalMeetingUrl}`] : []),
    ...(f.rescheduleLink ? [`Termin verschieben: ${f.rescheduleLink}`] : []),
    ...(f.cancelLink ? [`Termin absagen: ${f.cancelLink}`] : []),
  ];
}

export interface Mail {
  subject: string;
  text: string;
}

/** The e-mail to the client. */
export function clientMail(kind: MessageKind, f: MessageFacts): Mail {
  const when = formatWhen(f.start);
  // "Termin" carries the article, so every type name reads right (Erstgespräch, Konsultation).
  const what = `Termin (${f.typeName}) mit ${f.coachName}`;
  const hello = `Guten Tag ${f.clientName},`;
  const calendarNote = 'Die Einladung im Anhang können Sie in Ihren Kalender übernehmen.';
  const lines = (...parts: string[]) => parts.join('\n');
  switch (kind) {
    case 'booked':
    case 'invitation':
      return {
        subject: `Ihr Termin am ${when}`,
        text: lines(
          hello,
          '',
          `Ihr ${what} ist gebucht:`,
          `${when} (${minutes(f)} Minuten)`,
          '',
          ...meetingLines(f),
          '',
          calendarNote,
          'Wenn Sie den Termin nicht wahrnehmen können, sagen Sie ihn bitte rechtzeitig ab.',
          '',
          signature(f),
        ),
      };
    case 'rescheduled':
      return {
        // Handed to another coach at the same time: no move to speak of.
        subject: sameTime(f)
          ? `Ihr Termin am ${when}: neuer Coach`
          : `Ihr Termin wurde verschoben: ${when}`,
        text: lines(
          hello,
          '',
          sameTime(f)
            ? `Ihr ${what} findet zur gleichen Zeit statt.`
            : `Ihr ${what} wurde verschoben.`,
          ...(f.previousCoachName
            ? [`Ihr Coach ist jetzt ${f.coachName} (bisher ${f.previousCoachName}).`]
            : []),
          ...(f.previousStart && !sameTime(f) ? [`Bisher: ${formatWhen(f.previousStart)}`] : []),
          `${sameTime(f) ? 'Termin' : 'Neu'}: ${when} (${minutes(f)} Minuten)`,
          '',
          ...meetingLines(f),
          '',
          'Die geänderte Einladung im Anhang ersetzt die bisherige in Ihrem Kalender.',
          '',
          signature(f),
        ),
      };
    case 'cancelled':
      return {
        subject: `Ihr Termin am ${when} wurde abgesagt`,
        text: lines(
          hello,
          '',
          `Ihr ${what} am ${when} wurde abgesagt.`,
          'Mit der Absage im Anhang verschwindet er aus Ihrem Kalender.',
          'Einen neuen Termin können Sie jederzeit vereinbaren.',
          '',
          signature(f),
        ),
      };
    case 'reminder_24h':
    case 'reminder_1h':
      return {
        subject:
          kind === 'reminder_1h'
            ? `Erinnerung: Ihr Termin beginnt um ${clockOf(f.start)} Uhr`
            : `Erinnerung: Ihr Termin am ${when}`,
        text: withMeeting(
          f,
          hello,
          '',
          kind === 'reminder_1h'
            ? `Ihr ${what} beginnt in einer Stunde: ${when}.`
            : `wir erinnern Sie an Ihren ${what} morgen: ${when}.`,
        ),
      };
  }
}

/** The e-mail to the coach (no reminders: coaches see their day on the coach page). */
export function coachMail(kind: CoachMessageKind, f: MessageFacts): Mail {
  const when = formatWhen(f.start);
  const what = `${f.typeName} mit ${f.clientName}`;
  const hello = `Guten Tag ${f.coachName},`;
  const lines = (...parts: string[]) => parts.join('\n');
  switch (kind) {
    case 'handed_over':
      // `start` is the time the previous coach had; previousCoachName the one who has it now.
      return {
        subject: `Abgegeben: ${what} am ${when}`,
        text: lines(
          hello,
          '',
          `${what} am ${when} wurde an ${f.previousCoachName ?? 'einen anderen Coach'} übergeben.`,
          'Mit der Absage im Anhang verschwindet er aus Ihrem Kalender.',
          '',
          signature(f),
        ),
      };
    case 'cancelled':
      return {
        subject: `Abgesagt: ${what} am ${when}`,
        text: lines(hello, '', `${what} am ${when} wurde abgesagt.`, '', signature(f)),
      };
    case 'rescheduled':
      return {
        subject: `Verschoben: ${what} auf ${when}`,
        text: withMeeting(
          f,
          hello,
          '',
          `${what} wurde verschoben.`,
          ...(f.previousStart ? [`Bisher: ${formatWhen(f.previousStart)}`] : []),
          `Neu: ${when} (${minutes(f)} Minuten)`,
        ),
      };
    default:
      // An invitation, or the new coach taking over a reschedule.
      return {
        subject: `Neuer Termin: ${what} am ${when}`,
        text: withMeeting(
          f,
          hello,
          '',
          `${what}: ${when} (${minutes(f)} Minuten)`,
          ...(kind === 'taken_over' && f.previousCoachName
            ? [`Sie übernehmen diesen Termin von ${f.previousCoachName}.`]
            : []),
        ),
      };
  }
}

/** The SMS to the client: one short message with the time and the link. */
export function clientSms(kind: MessageKind, f: MessageFacts): string {
  const when = formatWhenShort(f.start);
  switch (kind) {
    case 'booked':
    case 'invitation':
      return `${f.practice}: Ihr Termin (${f.typeName}) am ${when} ist gebucht. Videotermin: ${f.link}`;
    case 'rescheduled':
      if (sameTime(f)) {
        return `${f.practice}: Ihr Termin (${f.typeName}) am ${when} findet jetzt mit ${f.coachName} statt. Videotermin: ${f.link}`;
      }
      return f.previousCoachName
        ? `${f.practice}: Ihr Termin (${f.typeName}) wurde auf ${when} verschoben, neu mit ${f.coachName}. Videotermin: ${f.link}`
        : `${f.practice}: Ihr Termin (${f.typeName}) wurde auf ${when} verschoben. Videotermin: ${f.link}`;
    case 'cancelled':
      return `${f.practice}: Ihr Termin (${f.typeName}) am ${when} wurde abgesagt.`;
    case 'reminder_24h':
      return `${f.practice}: Erinnerung an Ihren Termin (${f.typeName}) morgen, ${when}. Videotermin: ${f.link}`;
    case 'reminder_1h':
      return `${f.practice}: Ihr Termin (${f.typeName}) beginnt in einer Stunde (${when}). Videotermin: ${f.link}`;
  }
}
