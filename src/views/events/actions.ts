import type { TFunction } from 'i18next';

/**
 * An event's action code (`appointment.cancelled`, `user.activated` …) in German, from the
 * `staff:eventActions` keys; a code without a translation shows as "Sonstiges Ereignis (code)".
 * Used by `/events` and the appointment detail's event list.
 */
export function eventActionLabel(t: TFunction<'staff'>, code: string): string {
  const key = `eventActions.${code}`;
  if (/^[a-z_]+\.[a-z_]+$/.test(code)) {
    // A missing key comes back as the key itself.
    const label: string = t(key as never);
    if (label !== key && !label.endsWith(key)) return label;
  }
  return t('staff:eventActions.unknown', { code });
}
