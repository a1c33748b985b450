/**
 * The stable iCalendar UID of an appointment's event, the same in the invitation mail
 * (server) and in the file the booking page offers (browser), so that importing both gives
 * one calendar entry. `domain` is the app's host name.
 */
export const appointmentUid = (appointmentId: string, domain: string) =>
  `appointment-${appointmentId}@${domain}`;
