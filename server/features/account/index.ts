/** The account feature's public face: the only module other parts of the server import. */
export { accountHandlers } from './handlers';
