/** The billing feature's public face: the only module other parts of the server import. */
export { billingRuleHandlers } from './rule-handlers';
