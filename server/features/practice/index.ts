/** The practice settings feature's public face: the only module other parts of the server import. */
export { practiceHandlers } from './handlers';
export {
  defaultSettings,
  hasSellerIdentifier,
  loadPractice,
  practiceName,
  type PracticeConfig,
  type PracticeSettings,
} from './settings';
