/** The research export's public face: the pseudonymised ZIP and its summary. */
export { researchHandlers } from './handlers';
