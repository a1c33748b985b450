import { loadOwnPatientCardActor } from '../actors/client';
import { recordDetailMachine } from '../record-detail.machine';
import type { RouteEffects } from './effects';

/** The client's own signed documents (/mein-termin/dokumente): a read-only record. */
export const wireClientDocuments = ({ api }: RouteEffects) =>
  recordDetailMachine.provide({ actors: { loadDetail: loadOwnPatientCardActor(api) } });
