/** The client-signup feature's public face: the only module other parts of the server import. */
export { clientSignupHandlers } from './handlers';
