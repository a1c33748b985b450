/** The auth-sync feature's public face: the only module other parts of the server import. */
export { authSyncHandlers } from './handlers';
export { applyAuthUserEvent } from './apply';
export { registerAuthEventRawBody } from './signature';
