/** The catalog feature's public face: the only module other parts of the server import. */
export { catalogHandlers } from './handlers';
export { catalogConstraintProblems } from './maintain';
