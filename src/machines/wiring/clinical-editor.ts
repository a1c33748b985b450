import { createLocalDraftLogic } from '../actors/local-draft';
import { patientCardActors, summaryActors } from '../actors/staff/clinical';
import { documentEditorMachine } from '../document-editor.machine';
import type { RouteEffects } from './effects';

/**
 * The clinical document editor (issue #20) wired to the API and the tab's sessionStorage:
 * an appointment's summary, or a client's patient card (started at `createAt`, a held
 * appointment, when the client has none yet).
 */

export const wireSummaryEditor = ({ api }: RouteEffects) =>
  documentEditorMachine.provide({
    actors: { ...summaryActors(api), persistLocalDraft: createLocalDraftLogic() },
  });

export const wirePatientCardEditor =
  (createAt: string | null) =>
  ({ api }: RouteEffects) =>
    documentEditorMachine.provide({
      actors: { ...patientCardActors(api, createAt), persistLocalDraft: createLocalDraftLogic() },
    });
