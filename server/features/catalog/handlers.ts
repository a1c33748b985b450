import { asc, desc } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Tx } from '../../db/client';
import { campaigns, insurers } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { defineHandlers, type AppDeps } from '../../http/handler';
import { changedFields, recordEvent } from '../events/index';
import { changeCampaign, changeInsurer, insertCampaign, insertInsurer } from './maintain';
import { inTransaction } from '../../db/transaction';

type Entity = 'insurer' | 'campaign';
type Writer = { principal: Principal; deps: AppDeps };

/** A new entry and its `created` event (the fields `shown`), in one transaction; 201. */
async function createRecorded<R extends { id: string }>(
  { principal, deps, reply }: Writer & { reply: FastifyReply },
  entityType: Entity,
  insert: (tx: Tx) => Promise<R>,
  shown: (row: R) => Record<string, unknown>,
) {
  const row = await inTransaction(deps.db, async (tx) => {
    const created = await insert(tx);
    await recordEvent(tx, {
      type: `${entityType}.created`,
      entityType,
      entityId: created.id,
      actor: principal,
      changes: shown(created),
    });
    return created;
  });
  reply.code(201);
  return row;
}

/** A change and its `updated` event: the changed fields and how many clients a rename moved. */
function changeRecorded<R extends { id: string }>(
  { principal, deps }: Writer,
  entityType: Entity,
  change: (tx: Tx) => Promise<{ before: R; after: R; renamedClients: number }>,
) {
  return inTransaction(deps.db, async (tx) => {
    const { before, after, renamedClients } = await change(tx);
    await recordEvent(tx, {
      type: `${entityType}.updated`,
      entityType,
      entityId: after.id,
      actor: principal,
      changes: { ...changedFields(before, after), ...(renamedClients ? { renamedClients } : {}) },
    });
    return after;
  });
}

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

  createInsurer: (ctx) =>
    createRecorded(
      ctx,
      'insurer',
      (tx) => insertInsurer(tx, ctx.body),
      (row) => ({ name: row.name, ikNumber: row.ikNumber, active: row.active }),
    ),

  updateInsurer: (ctx) =>
    changeRecorded(ctx, 'insurer', (tx) => changeInsurer(tx, ctx.params.id, ctx.body)),

  createCampaign: (ctx) =>
    createRecorded(
      ctx,
      'campaign',
      (tx) => insertCampaign(tx, ctx.body),
      (row) => ({ code: row.code, name: row.name, active: row.active }),
    ),

  updateCampaign: (ctx) =>
    changeRecorded(ctx, 'campaign', (tx) => changeCampaign(tx, ctx.params.id, ctx.body)),
});
