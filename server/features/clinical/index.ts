/** The clinical documentation feature's public face: patient cards, summaries, review. */
import { exportHandlers } from './export';
import { documentHandlers } from './handlers';
import { reviewHandlers } from './review-handlers';
import { workHandlers } from './work-handlers';

export const clinicalHandlers = {
  ...documentHandlers,
  ...workHandlers,
  ...reviewHandlers,
  ...exportHandlers,
};

export { followAppointment } from './appointment-outcomes';
export { verifySignedDocuments, type SignatureCheck } from './signatures';
// The demo seed signs its documents with the same payload the editor's signing hashes.
export { signedPayload } from './documents';
export {
  patientCardBlockers,
  summaryBlockers,
  type PatientCardContent,
  type SummaryContent,
} from './content';
