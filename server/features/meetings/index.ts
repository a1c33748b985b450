/** The meetings feature's public face: the only module other parts of the server import. */
export { meetingsHandlers } from './handlers';
