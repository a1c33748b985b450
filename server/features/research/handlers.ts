import { todayInBerlin } from '../../../shared/time';
import { defineHandlers } from '../../http/handler';
import { conflict } from '../../http/problem';
import { instantOf } from '../../time';
import { recordEvent } from '../events/index';
import { startResearchExport } from './export';
import { researchKey } from './key';
import { researchCounts } from './queries';

/** ADMIN (and SUPERADMIN): what the export holds, and the export itself. */
export const researchHandlers = defineHandlers({
  async getResearchExportSummary({ deps }) {
    return { ...(await researchCounts(deps.db)), keyConfigured: researchKey(deps.config) !== null };
  },

  async exportResearchData({ deps, principal, reply }) {
    const key = researchKey(deps.config);
    if (!key) {
      throw conflict('research_key_missing', 'The research export needs RESEARCH_PSEUDONYM_KEY');
    }
    const now = deps.now();
    const fileName = `forschungsdaten-${todayInBerlin(instantOf(now)).toString()}.zip`;
    const run = await startResearchExport(deps.db, { key, now });
    await recordEvent(deps.db, {
      type: 'research.exported',
      entityType: 'research_export',
      actor: principal,
      changes: {
        fileName,
        participants: run.participants,
        appointments: run.appointments,
        suppressedCells: run.suppressedCells,
      },
    });
    reply
      .type('application/zip')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="${fileName}"`);
    return run.stream as never;
  },
});
