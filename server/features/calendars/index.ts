/** The connected-calendars feature's public face: the only module other parts of the server import. */
export { calendarsHandlers } from './handlers';
export {
  calendarJobs,
  syncConnection,
  SYNC_ALL_CALENDARS_JOB,
  SYNC_CALENDAR_JOB,
  type SyncResult,
} from './sync';
export {
  calendarWriteWanted,
  queueAppointmentWrite,
  reconcileWrites,
  RECONCILE_WRITES_JOB,
  writeAppointment,
  WRITE_APPOINTMENT_JOB,
  type WriteResult,
} from './writeback';
export { sealPassword, sealStoredPasswords } from './password';
export { selectAppointmentEvents } from './appointment-events';
export { notePrivateConflicts, PRIVATE_CONFLICT } from './conflicts';
export {
  overlapsPrivateBusy,
  privateCalendarView,
  type PrivateBusyTime,
  type PrivateCalendarState,
} from './staff-view';
