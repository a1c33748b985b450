/** The mailing-list feature's public face: the only module other parts of the server import. */
export { mailingListHandlers } from './handlers';
export { mailingListJobs, runMailingListSync, SYNC_MAILING_LIST_JOB } from './sync';
export { registerMailingListFormBody } from './form-body';
export { MAILING_LIST_EVENTS } from './webhook';
