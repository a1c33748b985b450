/** The clients feature's public face: the only module other parts of the server import. */
export { clientsHandlers } from './handlers';
export { selectClients, toClient } from './repository';
export { assertClientInScope } from './scope';
export { assertClientFields } from './fields';
