import { downloadResearchExportActor, loadResearchSummaryActor } from '../actors/staff/research';
import { researchExportMachine } from '../research-export.machine';
import type { RouteEffects } from './effects';

/** `/admin/research-export` wired to the API. */
export const wireResearchExport = ({ api }: RouteEffects) =>
  researchExportMachine.provide({
    actors: {
      loadResearchSummary: loadResearchSummaryActor(api),
      downloadResearchExport: downloadResearchExportActor(api),
    },
  });
