import { exportClinicalDocumentsActor } from '../actors/staff/clinical-export';
import { confirmActionMachine } from '../confirm-action.machine';
import type { RouteEffects } from './effects';

/** The client's clinical documents as one PDF: asks first (the export is logged), then a toast. */
export const wireClinicalExport = ({ api, toast }: RouteEffects) =>
  confirmActionMachine.provide({
    actors: { runAction: exportClinicalDocumentsActor(api) },
    actions: { notifyDone: () => toast({ kind: 'success', messageKey: 'clinical:export.done' }) },
  });
