/** The scheduling feature's public face: the only module other parts of the server import. */
export { schedulingHandlers } from './handlers';
export { coachFreeFor, freeCoachesAt, type Calendar, type CoachRef } from './slots';
