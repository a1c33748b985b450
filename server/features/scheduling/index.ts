/** The scheduling feature's public face: the only module other parts of the server import. */
export { schedulingHandlers } from './handlers';
export { holidayDuring, type Holiday } from './holidays';
export { coachFreeFor, freeCoachesAt, type Calendar, type CoachRef } from './slots';
