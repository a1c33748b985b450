/** The billing feature's public face: the only module other parts of the server import. */
export { billingRuleHandlers } from './rule-handlers';
export { billableItemHandlers } from './item-handlers';
export { billingJobs, BILLABLE_ITEMS_JOB, catchUpBillableItems } from './jobs';
// The demo seed approves items through the same call as the billing screen.
export { applyAction } from './actions';
