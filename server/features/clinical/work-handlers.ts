import { defineHandlers } from '../../http/handler';
import { accessLogOf, completeDocuments } from './batch';
import {
  incompletePatientCards,
  incompleteSummaries,
  patientCardStatus,
  pendingByCoach,
  tasksStatus,
} from './work-items';

/** Statuses, lists and review: no clinical content, so onboarding managers may call them. */
export const workHandlers = defineHandlers({
  listIncompleteSummaries: ({ query, principal, deps }) =>
    incompleteSummaries(deps.db, principal, deps.now(), query),
  listIncompletePatientCards: ({ query, principal, deps }) =>
    incompletePatientCards(deps.db, principal, deps.now(), query),
  getTasksOverallStatus: ({ query, principal, deps }) =>
    tasksStatus(deps.db, principal, deps.now(), query.coachId),
  getPatientCardsOverallStatus: ({ query, principal, deps }) =>
    patientCardStatus(deps.db, principal, deps.now(), query.coachId),
  listPendingReviewByCoach: ({ query, principal, deps }) =>
    pendingByCoach(deps.db, principal, query),
  async batchProcessSummaries({ body, principal, deps }) {
    return {
      processed: await completeDocuments(deps.db, principal, 'summary', body.ids, deps.now()),
    };
  },
  async batchProcessPatientCards({ body, principal, deps }) {
    return {
      processed: await completeDocuments(deps.db, principal, 'patient_card', body.ids, deps.now()),
    };
  },
  listClinicalAccessLog: ({ params, query, deps }) => accessLogOf(deps.db, params.clientId, query),
});
