/** The calendar-feed feature's public face: the only module other parts of the server import. */
export { calendarFeedHandlers } from './handlers';
