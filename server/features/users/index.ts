/** The users feature's public face: the only module other parts of the server import. */
export { usersConstraintProblems, usersHandlers } from './handlers';
export { hashActivationCode } from './codes';
