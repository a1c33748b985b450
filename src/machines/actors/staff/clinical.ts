import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import { isApiError } from '../../../api/errors';
import type { components } from '../../../../shared/contract/product';
import type {
  AmendmentInput,
  DocumentMeta,
  DocumentSubject,
  ReviewCommentInput,
  LoadedDocument,
  SaveDraftInput,
  SavedDocument,
  SignedDocument,
} from '../../document-editor.machine';

/**
 * The document editor's calls for the two clinical documents. A summary's
 * `documentId` is its appointment's id; a patient card's is the client's id (the card's own id,
 * which its PUT and amendments need, is learned at load or when the first save creates it).
 * Loading also reads whose document it is (the appointment: client, date, type) for the header.
 */

type Schemas = components['schemas'];
type SummaryDoc = Schemas['AppointmentSummary'];
type CardDoc = Schemas['PatientCard'];
type ClinicalDoc = SummaryDoc | CardDoc;
type Appointment = Schemas['Appointment'];
export type ClientClinicalStatus = Schemas['ClientClinicalStatus'];

/** A new summary starts as an empty SOAP note. */
export const NEW_SUMMARY: Schemas['SummaryContent'] = { format: 'SOAP', riskFlag: false };

const metaOf = (doc: ClinicalDoc): DocumentMeta => ({
  blockers: doc.blockers,
  signature: doc.signature,
  amendments: doc.amendments,
  reviewComments: doc.reviewComments,
  completed: doc.completedAt ? { at: doc.completedAt, byName: doc.completedByName } : null,
});

const loadedOf = (
  doc: ClinicalDoc,
  response: Response,
  subject: DocumentSubject | null,
): LoadedDocument => ({
  content: doc.content as Record<string, unknown>,
  etag: response.headers.get('etag') ?? `"v${doc.version}"`,
  status: doc.status,
  meta: metaOf(doc),
  subject,
});

/** Not created yet: the empty template without an ETag (the editor's `absent`). */
const absentOf = (
  content: Record<string, unknown>,
  subject: DocumentSubject | null,
): LoadedDocument => ({
  content,
  etag: null,
  status: 'new',
  subject,
});

const savedOf = (doc: ClinicalDoc, response: Response): SignedDocument & SavedDocument => ({
  etag: response.headers.get('etag') ?? `"v${doc.version}"`,
  status: doc.status,
  meta: metaOf(doc),
});

const missing = (error: unknown) => isApiError(error) && error.status === 404;

/** A refusal the editor names like the server's (`code`, `status`), without asking the server. */
const refusal = (status: number, code: string) => Object.assign(new Error(code), { status, code });

/** Whose document it is, from its appointment (name, date, type). */
const subjectOf = (a: Appointment): DocumentSubject => ({
  clientId: a.clientId,
  clientName: a.clientName,
  appointmentId: a.id,
  appointmentStart: a.startDate,
  appointmentType: a.appointmentType,
});

/** Held: started, not cancelled, not a no-show, not provisional (the server's rule for documents). */
const held = (a: Appointment) =>
  !a.cancelledAt && !a.noShow && !a.isProvisional && Date.parse(a.startDate) <= Date.now();

async function appointmentOf(api: ApiClient, id: string, signal: AbortSignal) {
  const { data } = await api.GET('/appointment/{id}', { params: { path: { id } }, signal });
  return data!;
}

/**
 * The client's documents without content (no access-log entry): whether one exists is asked
 * here, so opening an editor never reads a document that is not there (a 404 in the console).
 */
async function statusOf(api: ApiClient, clientId: string, signal: AbortSignal) {
  const { data } = await api.GET('/client/{clientId}/clinical-status', {
    params: { path: { clientId } },
    signal,
  });
  return data!;
}

export interface ClinicalEditorActors {
  loadDocument: ReturnType<typeof fromPromise<LoadedDocument, { documentId: string }>>;
  saveDraft: ReturnType<typeof fromPromise<SavedDocument, SaveDraftInput>>;
  signDocument: ReturnType<
    typeof fromPromise<SignedDocument, { documentId: string; etag: string }>
  >;
  addAmendment: ReturnType<typeof fromPromise<{ meta: DocumentMeta }, AmendmentInput>>;
  addReviewComment: ReturnType<typeof fromPromise<{ meta: DocumentMeta }, ReviewCommentInput>>;
}

/**
 * `/appointment/{appointmentId}/summary`: read it, or the empty template when there is none
 * (the first save creates it), save, sign, amend.
 */
export function summaryActors(api: ApiClient): ClinicalEditorActors {
  const params = (appointmentId: string) => ({ path: { appointmentId } });
  const withEtag = (appointmentId: string, etag: string) => ({
    path: { appointmentId },
    header: { 'If-Match': etag },
  });
  return {
    loadDocument: fromPromise(async ({ input, signal }) => {
      const readSummary = async (subject: DocumentSubject | null) => {
        const { data, response } = await api.GET('/appointment/{appointmentId}/summary', {
          params: params(input.documentId),
          signal,
        });
        return loadedOf(data!, response, subject);
      };
      const appointment = await appointmentOf(api, input.documentId, signal).catch(
        (error: unknown) => {
          // A coach reads the summaries of a client they coach, also of another coach's appointment.
          if (missing(error)) return null;
          throw error;
        },
      );
      if (appointment === null) return readSummary(null);
      const subject = subjectOf(appointment);
      const status = await statusOf(api, appointment.clientId, signal);
      if (!status.summaries.some((s) => s.appointmentId === appointment.id)) {
        if (!held(appointment)) throw refusal(409, 'appointment_not_held');
        return absentOf(NEW_SUMMARY, subject);
      }
      try {
        return await readSummary(subject);
      } catch (error) {
        if (missing(error)) return absentOf(NEW_SUMMARY, subject);
        throw error;
      }
    }),
    saveDraft: fromPromise(async ({ input, signal }) => {
      const content = input.content as Schemas['SummaryContent'];
      if (input.etag === null) {
        const { data, response } = await api.POST('/appointment/{appointmentId}/summary', {
          params: params(input.documentId),
          body: { content },
          signal,
        });
        return savedOf(data!, response);
      }
      const { data, response } = await api.PUT('/appointment/{appointmentId}/summary', {
        params: withEtag(input.documentId, input.etag),
        body: { content },
        signal,
      });
      return savedOf(data!, response);
    }),
    signDocument: fromPromise(async ({ input, signal }) => {
      const { data, response } = await api.PUT('/appointment/{appointmentId}/summary', {
        params: withEtag(input.documentId, input.etag),
        body: { status: 'sent' },
        signal,
      });
      return savedOf(data!, response);
    }),
    addAmendment: fromPromise(async ({ input, signal }) => {
      const { data } = await api.POST('/appointment/{appointmentId}/summary/amendments', {
        params: {
          ...params(input.documentId),
          header: { 'Idempotency-Key': input.idempotencyKey },
        },
        body: { reason: input.reason, text: input.text },
        signal,
      });
      return { meta: metaOf(data!) };
    }),
    addReviewComment: fromPromise(async ({ input, signal }) => {
      const { data } = await api.POST('/appointment/{appointmentId}/summary/review-comments', {
        params: {
          ...params(input.documentId),
          header: { 'Idempotency-Key': input.idempotencyKey },
        },
        body: { text: input.text },
        signal,
      });
      return { meta: metaOf(data!) };
    }),
  };
}

/** A new patient card starts empty. */
const NEW_CARD: Record<string, unknown> = {};

/**
 * The client's patient card. Read per client; when there is none, `createAt` (a held
 * appointment of the client) is where the first save starts it, else "no card yet" (404).
 */
export function patientCardActors(api: ApiClient, createAt: string | null): ClinicalEditorActors {
  let cardId: string | null = null;
  const card = () => {
    if (cardId === null) throw new Error('patient card: not loaded');
    return cardId;
  };
  const remember = (doc: CardDoc, response: Response) => {
    cardId = doc.id;
    return savedOf(doc, response);
  };
  return {
    loadDocument: fromPromise(async ({ input, signal }) => {
      const status = await statusOf(api, input.documentId, signal);
      const at = status.patientCard?.appointmentId ?? createAt;
      const subject = at ? subjectOf(await appointmentOf(api, at, signal)) : null;
      if (!status.patientCard) {
        if (createAt === null) throw refusal(404, 'not_found');
        return absentOf(NEW_CARD, subject);
      }
      const { data, response } = await api.GET('/client/{clientId}/patient-card', {
        params: { path: { clientId: input.documentId } },
        signal,
      });
      cardId = data!.id;
      return loadedOf(data!, response, subject);
    }),
    saveDraft: fromPromise(async ({ input, signal }) => {
      const content = sendableCard(input.content);
      if (input.etag === null) {
        if (createAt === null) throw refusal(404, 'not_found');
        const { data, response } = await api.POST('/appointment/{appointmentId}/patient-card', {
          params: { path: { appointmentId: createAt } },
          body: { content },
          signal,
        });
        return remember(data!, response);
      }
      const { data, response } = await api.PUT('/patient-card/{patientCardId}', {
        params: { path: { patientCardId: card() }, header: { 'If-Match': input.etag } },
        body: { content },
        signal,
      });
      return remember(data!, response);
    }),
    signDocument: fromPromise(async ({ input, signal }) => {
      const { data, response } = await api.PUT('/patient-card/{patientCardId}', {
        params: { path: { patientCardId: card() }, header: { 'If-Match': input.etag } },
        body: { status: 'sent' },
        signal,
      });
      return savedOf(data!, response);
    }),
    addAmendment: fromPromise(async ({ input, signal }) => {
      const { data } = await api.POST('/patient-card/{patientCardId}/amendments', {
        params: {
          path: { patientCardId: card() },
          header: { 'Idempotency-Key': input.idempotencyKey },
        },
        body: { reason: input.reason, text: input.text },
        signal,
      });
      return { meta: metaOf(data!) };
    }),
    addReviewComment: fromPromise(async ({ input, signal }) => {
      const { data } = await api.POST('/patient-card/{patientCardId}/review-comments', {
        params: {
          path: { patientCardId: card() },
          header: { 'Idempotency-Key': input.idempotencyKey },
        },
        body: { text: input.text },
        signal,
      });
      return { meta: metaOf(data!) };
    }),
  };
}

/** Goals and diagnoses just added and still empty are not sent (the contract needs a text). */
function sendableCard(content: Record<string, unknown>): Schemas['PatientCardContent'] {
  const card = { ...content } as Schemas['PatientCardContent'];
  if (card.goals) card.goals = card.goals.filter((g) => g.text.trim() !== '');
  if (card.diagnoses) card.diagnoses = card.diagnoses.filter((d) => d.text.trim() !== '');
  return card;
}

/** `GET /client/{clientId}/clinical-status`: statuses only; null when it cannot be read. */
export const loadClinicalStatus = (api: ApiClient, clientId: string, signal: AbortSignal) =>
  api
    .GET('/client/{clientId}/clinical-status', { params: { path: { clientId } }, signal })
    .then((r) => r.data!)
    .catch(() => null);

/** `GET /admin/client/{clientId}/clinical-access-log` (admins); null when not readable. */
export const loadClinicalAccessLog = (api: ApiClient, clientId: string, signal: AbortSignal) =>
  api
    .GET('/admin/client/{clientId}/clinical-access-log', {
      params: { path: { clientId }, query: { limit: 50 } },
      signal,
    })
    .then((r) => r.data!)
    .catch(() => null);
