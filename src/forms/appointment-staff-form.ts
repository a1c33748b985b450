import { Temporal } from '@js-temporal/polyfill';
import { z } from 'zod';
import { APPOINTMENT_TYPES, MEETING_TYPES } from '../../shared/contract/enums';
import type { components } from '../../shared/contract/product';
import type { FormSchema, FormValues } from './form-schema';

/**
 * The appointment form of `/appointments/{id}/edit`: day and times in Berlin wall time, type,
 * meeting kind, provisional, no-show and an external meeting link. Times become instants
 * (Europe/Berlin, DST-safe: a time the clock skips moves forward).
 *
 * A move outside the coach's availability is refused (409 outside_availability) unless staff
 * tick the override and say why; the page offers that after such a refusal. A move
 * onto a public holiday (409 public_holiday) is overridden the same way.
 */
type Appointment = components['schemas']['Appointment'];

const ZONE = 'Europe/Berlin';
const two = (n: number) => String(n).padStart(2, '0');

export const toInstant = (date: string, time: string) =>
  Temporal.PlainDateTime.from(`${date}T${time}`)
    .toZonedDateTime(ZONE, { disambiguation: 'compatible' })
    .toInstant()
    .toString();

/** The 409 code of a move outside the coach's availability: the form then offers the override. */
export const OUTSIDE_AVAILABILITY = 'outside_availability';
/** The 409 code of a move onto a public holiday: the form offers the same override, for the holiday. */
export const PUBLIC_HOLIDAY = 'public_holiday';
/** The API's limit for availabilityOverrideReason. */
export const OVERRIDE_REASON_MAX = 500;

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
    // Absent until the page offers the override.
    overrideAvailability: z.boolean().default(false),
    overrideReason: z
      .string()
      .trim()
      .max(OVERRIDE_REASON_MAX, { error: 'value_too_long' })
      .default(''),
  })
  .superRefine((v, ctx) => {
    if (v.startTime && v.endTime && v.endTime <= v.startTime) {
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'end_before_start' });
    }
    if (v.overrideAvailability && v.overrideReason === '') {
      ctx.addIssue({ code: 'custom', path: ['overrideReason'], message: 'value_missing' });
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
    // Sent only when ticked; the server uses it only for a move that needs it.
    availabilityOverrideReason: v.overrideAvailability ? v.overrideReason : undefined,
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
    overrideAvailability: false,
    overrideReason: '',
  };
}

/**
 * Whether the form offers "nicht erschienen": once the appointment (as the form's date and
 * start say) has started, as the server allows (shared/appointment-phase.ts), or when it is
 * ticked already, so it can be unticked.
 */
export function offersNoShow(values: FormValues, nowMs: number): boolean {
  if (values.noShow === true) return true;
  const { date, startTime } = values;
  if (typeof date !== 'string' || typeof startTime !== 'string') return false;
  try {
    return Date.parse(toInstant(date, startTime)) <= nowMs;
  } catch {
    return false;
  }
}
