import { defineHandlers } from '../../http/handler';
import { changedFields, recordEvent } from '../events/index';
import { inTransaction } from '../../db/transaction';
import { previewRules } from './preview';
import {
  createRule,
  deleteRule,
  orderedRules,
  reorderRules,
  toBillingRule,
  updateRule,
} from './rules';

const ruleEvent = (type: 'created' | 'updated' | 'deleted', id: string) => ({
  type: `billing_rule.${type}` as const,
  entityType: 'billing_rule',
  entityId: id,
});

/** /admin/billing-rules…: ADMIN (and SUPERADMIN) by the contract's x-roles. */
export const billingRuleHandlers = defineHandlers({
  async listBillingRules({ deps }) {
    const rows = await orderedRules(deps.db);
    return { billingRules: rows.map(toBillingRule) };
  },

  previewBillingRules: ({ query, deps }) =>
    previewRules(deps.db, query.appointmentId, deps.now(), deps.config.CLIENT_CHANGE_NOTICE_HOURS),

  async createBillingRule({ body, principal, deps, reply }) {
    const row = await inTransaction(deps.db, async (tx) => {
      const created = await createRule(tx, body);
      await recordEvent(tx, {
        ...ruleEvent('created', created.id),
        actor: principal,
        changes: body,
      });
      return created;
    });
    reply.code(201);
    return toBillingRule(row);
  },

  async updateBillingRule({ params, body, principal, deps }) {
    const row = await inTransaction(deps.db, async (tx) => {
      const { before, after } = await updateRule(tx, params.id, body);
      await recordEvent(tx, {
        ...ruleEvent('updated', after.id),
        actor: principal,
        changes: {
          ...changedFields(before, body),
          version: { from: before.version, to: after.version },
        },
      });
      return after;
    });
    return toBillingRule(row);
  },

  async deleteBillingRule({ params, principal, deps }) {
    await inTransaction(deps.db, async (tx) => {
      const row = await deleteRule(tx, params.id);
      await recordEvent(tx, {
        ...ruleEvent('deleted', row.id),
        actor: principal,
        changes: { name: row.name, version: row.version },
      });
    });
  },

  async reorderBillingRules({ body, principal, deps }) {
    const rows = await inTransaction(deps.db, async (tx) => {
      const ordered = await reorderRules(tx, body.ids);
      await recordEvent(tx, {
        type: 'billing_rule.reordered',
        entityType: 'billing_rule',
        actor: principal,
        changes: { ids: body.ids },
      });
      return ordered;
    });
    return { billingRules: rows.map(toBillingRule) };
  },
});
