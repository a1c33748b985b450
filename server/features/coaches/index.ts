/** The coaches feature's public face: the only module other parts of the server import. */
export { coachesHandlers } from './handlers';
