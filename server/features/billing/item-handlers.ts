import { and, eq } from 'drizzle-orm';
import { billableItems } from '../../db/schema/index';
import type { Db } from '../../db/client';
import type { Principal } from '../../http/auth';
import { defineHandlers, type Result } from '../../http/handler';
import { jsonAnswer } from '../../http/json-answer';
import { applyAction, applyToOne } from './actions';
import { itemScope, itemsAsJson, listItemPage, listItemSelection } from './list';

/** One item as the contract writes it (the list's own mapping), after an action on it. */
async function itemById(db: Db, principal: Principal, id: string) {
  const [one] = await itemsAsJson(db, and(eq(billableItems.id, id), itemScope(principal)));
  return one as Result<'markBillableItemApproved'>;
}

/** /billable-items…: listing for COACH, ADMIN, ONBOARDING_MANAGER; actions for ADMIN. */
export const billableItemHandlers = defineHandlers({
  listBillableItems: async ({ query, principal, deps, reply }) =>
    jsonAnswer<'listBillableItems'>(reply, await listItemPage(deps.db, principal, query)),
  listBillableItemSelection: ({ query, principal, deps }) => listItemSelection(deps.db, principal, query),

  async batchApproveBillableItems({ body, principal, deps }) {
    return { updated: (await applyAction(deps.db, principal, 'approve', body.ids, deps.jobs)).length };
  },
  async batchCancelBillableItems({ body, principal, deps }) {
    return { updated: (await applyAction(deps.db, principal, 'cancel', body.ids, deps.jobs)).length };
  },
  async batchUncancelBillableItems({ body, principal, deps }) {
    return { updated: (await applyAction(deps.db, principal, 'uncancel', body.ids, deps.jobs)).length };
  },
  async batchMarkInvoiceSentBillableItems({ body, principal, deps }) {
    return { updated: (await applyAction(deps.db, principal, 'markInvoiceSent', body.ids, deps.jobs)).length };
  },
  async batchRemoveValidationBillableItems({ body, principal, deps }) {
    return { updated: (await applyAction(deps.db, principal, 'removeValidation', body.ids, deps.jobs)).length };
  },
  async batchDeleteBillableItems({ body, principal, deps }) {
    await applyAction(deps.db, principal, 'delete', body.ids, deps.jobs);
    return { deleted: body.ids.length };
  },

  async markBillableItemApproved({ params, principal, deps }) {
    await applyToOne(deps.db, principal, 'approve', params.id, deps.jobs);
    return itemById(deps.db, principal, params.id);
  },
  async markBillableItemInvoiceSent({ params, principal, deps }) {
    await applyToOne(deps.db, principal, 'markInvoiceSent', params.id, deps.jobs);
    return itemById(deps.db, principal, params.id);
  },
});
