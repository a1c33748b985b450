import { asc, desc } from 'drizzle-orm';
import { campaigns, insurers } from '../../db/schema/index';
import { defineHandlers } from '../../http/handler';
import { changedFields, recordEvent } from '../events/index';
import { changeCampaign, changeInsurer, insertCampaign, insertInsurer } from './maintain';

const event = (entityType: 'insurer' | 'campaign', type: 'created' | 'updated', id: string) => ({
  type: `${entityType}.${type}`,
  entityType,
  entityId: id,
});

// Reference lists for forms and filters: small, so returned whole, active ones first.
// Adding and changing them is ADMIN's (and SUPERADMIN's) by the contract's x-roles.
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

  async createInsurer({ body, principal, deps, reply }) {
    const row = await deps.db.transaction(async (tx) => {
      const created = await insertInsurer(tx, body);
      await recordEvent(tx, {
        ...event('insurer', 'created', created.id),
        actor: principal,
        changes: { name: created.name, ikNumber: created.ikNumber, active: created.active },
      });
      return created;
    });
    reply.code(201);
    return row;
  },

  async updateInsurer({ params, body, principal, deps }) {
    return deps.db.transaction(async (tx) => {
      const { before, after, renamedClients } = await changeInsurer(tx, params.id, body);
      await recordEvent(tx, {
        ...event('insurer', 'updated', after.id),
        actor: principal,
        changes: { ...changedFields(before, after), ...(renamedClients ? { renamedClients } : {}) },
      });
      return after;
    });
  },

  async createCampaign({ body, principal, deps, reply }) {
    const row = await deps.db.transaction(async (tx) => {
      const created = await insertCampaign(tx, body);
      await recordEvent(tx, {
        ...event('campaign', 'created', created.id),
        actor: principal,
        changes: { code: created.code, name: created.name, active: created.active },
      });
      return created;
    });
    reply.code(201);
    return row;
  },

  async updateCampaign({ params, body, principal, deps }) {
    return deps.db.transaction(async (tx) => {
      const { before, after, renamedClients } = await changeCampaign(tx, params.id, body);
      await recordEvent(tx, {
        ...event('campaign', 'updated', after.id),
        actor: principal,
        changes: { ...changedFields(before, after), ...(renamedClients ? { renamedClients } : {}) },
      });
      return after;
    });
  },
});
