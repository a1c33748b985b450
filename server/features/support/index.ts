/** The support feature's public face: the only module other parts of the server import. */
export { supportHandlers } from './handlers';
