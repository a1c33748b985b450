/** The events feature's public face: the only module other parts of the server import. */
export { eventsHandlers } from './handlers';
export { changedFields, recordEvent, updateRecorded, type EventType } from './record';
