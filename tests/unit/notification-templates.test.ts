import { describe, expect, it } from 'vitest';
import {
  clientMail,
  clientSms,
  coachMail,
  formatWhen,
  formatWhenShort,
  type MessageFacts,
} from '../../server/features/notifications/templates';

const facts = (start: string, end: string, extra: Partial<MessageFacts> = {}): MessageFacts => ({
  practice: 'Praxis',
  typeName: 'Erstgespräch',
  start,
  end,
  clientName: 'Klara Klientin',
  coachName: 'Carla Coach',
  link: 'https://praxis.example/meeting',
  meetingCode: 'abcd-efgh-jkmn',
  cancelLink: null,
  externalMeetingUrl: null,
  ...extra,
});

describe('appointment messages: Berlin wall time across the October change', () => {
  it('shows both 02:30 of the night the clocks go back, one hour apart', () => {
    // 27 October 2030: 03:00 summer time becomes 02:00 winter time.
    expect(formatWhen('2030-10-27T00:30:00.000Z')).toBe('Sonntag, 27. Oktober 2030, 02:30 Uhr');
    expect(formatWhen('2030-10-27T01:30:00.000Z')).toBe('Sonntag, 27. Oktober 2030, 02:30 Uhr');
    expect(formatWhen('2030-10-26T21:59:00.000Z')).toBe('Samstag, 26. Oktober 2030, 23:59 Uhr');
    expect(formatWhenShort('2030-10-27T09:00:00.000Z')).toBe('So., 27.10.2030, 10:00 Uhr');
  });

  it('counts the minutes of an appointment across the change as they pass', () => {
    // 02:00 summer time to 02:30 winter time: 90 minutes, though the wall clock says 30.
    const mail = clientMail(
      'booked',
      facts('2030-10-27T00:00:00.000Z', '2030-10-27T01:30:00.000Z'),
    );
    expect(mail.text).toContain('Sonntag, 27. Oktober 2030, 02:00 Uhr (90 Minuten)');
  });

  it('writes the reminders in Berlin time', () => {
    const f = facts('2030-10-27T09:00:00.000Z', '2030-10-27T09:30:00.000Z');
    expect(clientMail('reminder_1h', f).subject).toBe(
      'Erinnerung: Ihr Termin beginnt um 10:00 Uhr',
    );
    expect(clientMail('reminder_24h', f).subject).toBe(
      'Erinnerung: Ihr Termin am Sonntag, 27. Oktober 2030, 10:00 Uhr',
    );
    expect(clientSms('reminder_24h', f)).toContain('morgen, So., 27.10.2030, 10:00 Uhr');
  });

  it('tells a reschedule that kept the time (same instant, other coach) from a move', () => {
    const start = '2030-10-27T09:00:00.000Z';
    const kept = facts(start, '2030-10-27T09:30:00.000Z', {
      previousStart: '2030-10-27T10:00:00+01:00',
      previousCoachName: 'Bea Bisher',
    });
    expect(clientMail('rescheduled', kept).subject).toBe(
      'Ihr Termin am Sonntag, 27. Oktober 2030, 10:00 Uhr: neuer Coach',
    );
    const moved = { ...kept, previousStart: '2030-10-26T09:00:00.000Z' };
    expect(clientMail('rescheduled', moved).text).toContain(
      'Bisher: Samstag, 26. Oktober 2030, 11:00 Uhr',
    );
  });

  it('the new coach of a handed-over appointment reads who had it; an invitation does not', () => {
    const f = facts('2030-10-27T09:00:00.000Z', '2030-10-27T09:30:00.000Z', {
      previousCoachName: 'Bea Bisher',
    });
    expect(coachMail('taken_over', f).text).toContain(
      'Sie übernehmen diesen Termin von Bea Bisher.',
    );
    expect(coachMail('invitation', f).text).not.toContain('übernehmen');
    expect(coachMail('taken_over', f).text.split('\n').slice(-2)).toEqual([
      'Freundliche Grüße',
      'Ihr Team von Praxis',
    ]);
  });
});
