/** The appointments feature's public face: the only module other parts of the server import. */
export { appointmentsHandlers } from './handlers';
export { clientAppointmentsHandlers } from './client-handlers';
export { appointmentScope, selectAppointments, toAppointment } from './repository';
export { cancelForClient, lockChangeable, toClientAppointment } from './client-booking';
export { newMeetingCode, newVideoRoom } from './codes';
export { appointmentJobs, RELEASE_HOLDS_JOB } from './jobs';
export { appointmentOutcome, type AppointmentOutcome } from './outcomes';
