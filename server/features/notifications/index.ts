/** The notifications feature's public face: the only module other parts of the server import. */
export { notificationsHandlers } from './handlers';
export {
  DELIVER_JOB,
  enqueueAppointmentNotifications,
  mailOutbox,
  type DeliverJobData,
} from './enqueue';
export { authMailJob, DELIVER_WORK, notificationJobs } from './jobs';
export { mailRecovery, type MailRecovery } from './recovery';
export { mailRetryPolicy } from './retry-policy';
export { addressOf, buildCalendar } from './ics';
export { APPOINTMENT_TYPE_NAMES } from './templates';
export {
  enqueueStaffInvitation,
  staffActivationLink,
  STAFF_INVITATION_TEMPLATE,
} from './staff-invitation';
