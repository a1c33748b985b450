import { Temporal } from '@js-temporal/polyfill';
import { z } from 'zod';
import type { components } from '../api/generated/product';
import type { FormSchema, FormValues } from './record-form.machine';

/**
 * The appointment form of `/appointments/{id}/edit`: day and times in Berlin wall time, type,
 * meeting kind, provisional, no-show and an external meeting link. Times become instants
 * (Europe/Berlin, DST-safe: a time the clock skips moves forward).
 */
type Appointment = components['schemas']['Appointment'];

export const APPOINTMENT_TYPES = [
  'initial',
  'first',
  'followup',
  'first-arztkonsultation',
  'followup-arztkonsultation',
  'adhoc',
] as const satisfies ReadonlyArray<components['schemas']['AppointmentType']>;

export const MEETING_TYPES = ['jitsi', 'xodosign', 'arztkonsultation'] as const satisfies ReadonlyArray<
  components['schemas']['MeetingType']
>;

const ZONE = 'Europe/Berlin';
const two = (n: number) => String(n).padStart(2, '0');

const toInstant = (date: string, time: string) =>
  Temporal.PlainDateTime.from(`${date}T${time}`)
    .toZonedDateTime(ZONE, { disambiguation: 'compatible' })
    .toInstant()
    .toString();

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'value_invalid_format' });

export const appointmentFormSchema = z
  .object({
    date: z.string().refine((s) => z.iso.date().safeParse(s).success, { error: 'invalid_date' }),
    startTime: time,
    endTime: time,
    appointmentType: z.enum(APPOINTMENT_TYPES, { error: 'value_missing' }),
    meetingType: z.enum(MEETING_TYPES, { error: 'value_missing' }),
    isProvisional: z.boolean(),
    noShow: z.boolean(),
    externalMeetingUrl: z
      .string()
      .trim()
      .max(2000, { error: 'value_too_long' })
      .refine((s) => s === '' || /^https?:\/\/\S+$/.test(s), { error: 'value_invalid_format' }),
  })
  .superRefine((v, ctx) => {
    if (v.startTime && v.endTime && v.endTime <= v.startTime) {
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'end_before_start' });
    }
  })
  .transform((v) => ({
    startDate: toInstant(v.date, v.startTime),
    endDate: toInstant(v.date, v.endTime),
    appointmentType: v.appointmentType,
    meetingType: v.meetingType,
    isProvisional: v.isProvisional,
    noShow: v.noShow,
    externalMeetingUrl: v.externalMeetingUrl === '' ? null : v.externalMeetingUrl,
  })) as unknown as FormSchema;

/** A stored appointment as form values (Berlin wall time). */
export function appointmentFormValues(a: Appointment): FormValues {
  const start = Temporal.Instant.from(a.startDate).toZonedDateTimeISO(ZONE);
  const end = Temporal.Instant.from(a.endDate).toZonedDateTimeISO(ZONE);
  return {
    date: start.toPlainDate().toString(),
    startTime: `${two(start.hour)}:${two(start.minute)}`,
    endTime: `${two(end.hour)}:${two(end.minute)}`,
    appointmentType: a.appointmentType,
    meetingType: a.meetingType,
    isProvisional: a.isProvisional,
    noShow: a.noShow,
    externalMeetingUrl: a.externalMeetingUrl ?? '',
  };
}
