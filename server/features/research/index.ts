/** The research export's public face: the pseudonymised ZIP and its summary (issue 21 §3). */
export { researchHandlers } from './handlers';
