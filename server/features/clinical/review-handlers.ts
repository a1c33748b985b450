import { defineHandlers } from '../../http/handler';
import { patientCardsAwaitingReview, summariesAwaitingReview } from './review-list';

/** What waits for review: signed documents, names and dates only (onboarding managers may call). */
export const reviewHandlers = defineHandlers({
  listSummariesAwaitingReview: ({ query, principal, deps }) =>
    summariesAwaitingReview(deps.db, principal, deps.now(), query),
  listPatientCardsAwaitingReview: ({ query, principal, deps }) =>
    patientCardsAwaitingReview(deps.db, principal, deps.now(), query),
});
