import { createLeaveGuardLogic } from '../actors/leave-guard';
import { createLocalDraftLogic } from '../actors/local-draft';
import { patientCardActors, summaryActors } from '../actors/staff/clinical';
import { documentEditorMachine } from '../document-editor.machine';
import type { RouteEffects } from './effects';

/**
 * The clinical document editor wired to the API, the tab's sessionStorage, the
 * browser's leave events and the router: an appointment's summary, or a client's patient card
 * (started at `createAt`, a held appointment, when the client has none yet).
 */

const browserParts = (navigate: RouteEffects['navigate']) => ({
  actors: { persistLocalDraft: createLocalDraftLogic(), leaveGuard: createLeaveGuardLogic() },
  actions: {
    leavePage: ({ context }: { context: { leaveTo: string | null } }) => {
      if (context.leaveTo) navigate(context.leaveTo);
    },
  },
});

export const wireSummaryEditor = ({ api, navigate }: RouteEffects) => {
  const parts = browserParts(navigate);
  return documentEditorMachine.provide({
    actors: { ...summaryActors(api), ...parts.actors },
    actions: parts.actions,
  });
};

export const wirePatientCardEditor =
  (createAt: string | null) =>
  ({ api, navigate }: RouteEffects) => {
    const parts = browserParts(navigate);
    return documentEditorMachine.provide({
      actors: { ...patientCardActors(api, createAt), ...parts.actors },
      actions: parts.actions,
    });
  };
