/** The availability feature's public face: the only module other parts of the server import. */
export { availabilityHandlers } from './handlers';
export { expandOccurrences, localInstant, ZONE, type OverrideFields } from './occurrences';
export {
  availabilityScope,
  overlapsWindow,
  selectAvailabilities,
  toAvailability,
} from './repository';
export { queryWindow } from './window';
