import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import { isApiError } from '../../../api/errors';
import type { components } from '../../../../shared/contract/product';
import type {
  AmendmentInput,
  DocumentMeta,
  ReviewCommentInput,
  LoadedDocument,
  SaveDraftInput,
  SavedDocument,
  SignedDocument,
} from '../../document-editor.machine';

/**
 * The document editor's calls (issue #20) for the two clinical documents. A summary's
 * `documentId` is its appointment's id; a patient card's is the client's id (the card's own id,
 * which its PUT and amendments need, is learned at load).
 */

type Schemas = components['schemas'];
type SummaryDoc = Schemas['AppointmentSummary'];
type CardDoc = Schemas['PatientCard'];
type ClinicalDoc = SummaryDoc | CardDoc;
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

const loadedOf = (doc: ClinicalDoc, response: Response): LoadedDocument => ({
  content: doc.content as Record<string, unknown>,
  etag: response.headers.get('etag') ?? `"v${doc.version}"`,
  status: doc.status,
  meta: metaOf(doc),
});

const savedOf = (doc: ClinicalDoc, response: Response): SignedDocument & SavedDocument => ({
  etag: response.headers.get('etag') ?? `"v${doc.version}"`,
  status: doc.status,
  meta: metaOf(doc),
});

const missing = (error: unknown) => isApiError(error) && error.status === 404;
const exists = (error: unknown) =>
  isApiError(error) && (error.code === 'summary_exists' || error.code === 'patient_card_exists');

/** GET; when there is none yet, create it (a second tab creating it first is fine: read it). */
async function readOrCreate(read: () => Promise<LoadedDocument>, create: () => Promise<LoadedDocument>) {
  try {
    return await read();
  } catch (error) {
    if (!missing(error)) throw error;
  }
  try {
    return await create();
  } catch (error) {
    if (exists(error)) return read();
    throw error;
  }
}

export interface ClinicalEditorActors {
  loadDocument: ReturnType<typeof fromPromise<LoadedDocument, { documentId: string }>>;
  saveDraft: ReturnType<typeof fromPromise<SavedDocument, SaveDraftInput>>;
  signDocument: ReturnType<typeof fromPromise<SignedDocument, { documentId: string; etag: string }>>;
  addAmendment: ReturnType<typeof fromPromise<{ meta: DocumentMeta }, AmendmentInput>>;
  addReviewComment: ReturnType<typeof fromPromise<{ meta: DocumentMeta }, ReviewCommentInput>>;
}

/** `/appointment/{appointmentId}/summary`: read (or start) it, save, sign, amend. */
export function summaryActors(api: ApiClient): ClinicalEditorActors {
  const params = (appointmentId: string) => ({ path: { appointmentId } });
  const withEtag = (appointmentId: string, etag: string) => ({
    path: { appointmentId },
    header: { 'If-Match': etag },
  });
  return {
    loadDocument: fromPromise(({ input, signal }) =>
      readOrCreate(
        async () => {
          const { data, response } = await api.GET('/appointment/{appointmentId}/summary', {
            params: params(input.documentId),
            signal,
          });
          return loadedOf(data!, response);
        },
        async () => {
          const { data, response } = await api.POST('/appointment/{appointmentId}/summary', {
            params: params(input.documentId),
            body: { content: NEW_SUMMARY },
            signal,
          });
          return loadedOf(data!, response);
        },
      ),
    ),
    saveDraft: fromPromise(async ({ input, signal }) => {
      const { data, response } = await api.PUT('/appointment/{appointmentId}/summary', {
        params: withEtag(input.documentId, input.etag),
        body: { content: input.content as Schemas['SummaryContent'] },
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
        params: params(input.documentId),
        body: { reason: input.reason, text: input.text },
        signal,
      });
      return { meta: metaOf(data!) };
    }),
    addReviewComment: fromPromise(async ({ input, signal }) => {
      const { data } = await api.POST('/appointment/{appointmentId}/summary/review-comments', {
        params: params(input.documentId),
        body: { text: input.text },
        signal,
      });
      return { meta: metaOf(data!) };
    }),
  };
}

/**
 * The client's patient card. Read per client; when there is none, `createAt` (a held
 * appointment of the client) starts it, else the 404 stands ("no card yet").
 */
export function patientCardActors(api: ApiClient, createAt: string | null): ClinicalEditorActors {
  let cardId: string | null = null;
  const remember = (doc: CardDoc, response: Response) => {
    cardId = doc.id;
    return loadedOf(doc, response);
  };
  const card = () => {
    if (cardId === null) throw new Error('patient card: not loaded');
    return cardId;
  };
  const read = async (clientId: string, signal: AbortSignal) => {
    const { data, response } = await api.GET('/client/{clientId}/patient-card', {
      params: { path: { clientId } },
      signal,
    });
    return remember(data!, response);
  };
  return {
    loadDocument: fromPromise(({ input, signal }) =>
      createAt === null
        ? read(input.documentId, signal)
        : readOrCreate(
            () => read(input.documentId, signal),
            async () => {
              const { data, response } = await api.POST('/appointment/{appointmentId}/patient-card', {
                params: { path: { appointmentId: createAt } },
                body: {},
                signal,
              });
              return remember(data!, response);
            },
          ),
    ),
    saveDraft: fromPromise(async ({ input, signal }) => {
      const { data, response } = await api.PUT('/patient-card/{patientCardId}', {
        params: { path: { patientCardId: card() }, header: { 'If-Match': input.etag } },
        body: { content: sendableCard(input.content) },
        signal,
      });
      return savedOf(data!, response);
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
        params: { path: { patientCardId: card() } },
        body: { reason: input.reason, text: input.text },
        signal,
      });
      return { meta: metaOf(data!) };
    }),
    addReviewComment: fromPromise(async ({ input, signal }) => {
      const { data } = await api.POST('/patient-card/{patientCardId}/review-comments', {
        params: { path: { patientCardId: card() } },
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
