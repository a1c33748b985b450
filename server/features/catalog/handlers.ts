import { asc, desc } from 'drizzle-orm';
import { campaigns, insurers } from '../../db/schema/index';
import { defineHandlers } from '../../http/handler';

// Reference lists for forms and filters: small, so returned whole, active ones first.
export const catalogHandlers = defineHandlers({
  async listInsurers({ deps }) {
    const rows = await deps.db
      .select()
      .from(insurers)
      .orderBy(desc(insurers.active), asc(insurers.name));
    return { insurers: rows };
  },

  async listCampaigns({ deps }) {
    const rows = await deps.db
      .select()
      .from(campaigns)
      .orderBy(desc(campaigns.active), asc(campaigns.name));
    return { campaigns: rows };
  },
});
