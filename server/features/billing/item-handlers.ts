import type { FastifyReply } from 'fastify';
import type { Principal } from '../../http/auth';
import { defineHandlers, type AppDeps } from '../../http/handler';
import { jsonAnswer } from '../../http/json-answer';
import { notFound } from '../../http/problem';
import { applyAction, applyToOne } from './actions';
import { itemBody, listItemPage, listItemSelection } from './list';

/** One item as the contract writes it (the list's own bodies), after an action on it. */
async function itemById<O extends 'markBillableItemApproved' | 'markBillableItemInvoiceSent'>(
  deps: AppDeps,
  reply: FastifyReply,
  principal: Principal,
  id: string,
) {
  const body = await itemBody(deps.db, principal, id);
  // The action found the item in the caller's scope a statement earlier.
  if (body === undefined) throw notFound('billable item');
  return jsonAnswer<O>(reply, body);
}

/** /billable-items…: listing for COACH, ADMIN, ONBOARDING_MANAGER; actions for ADMIN. */
export const billableItemHandlers = defineHandlers({
  listBillableItems: async ({ query, principal, deps, reply }) =>
    jsonAnswer<'listBillableItems'>(reply, await listItemPage(deps.db, principal, query)),
  listBillableItemSelection: ({ query, principal, deps }) =>
    listItemSelection(deps.db, principal, query),

  async batchApproveBillableItems({ body, principal, deps }) {
    return {
      updated: (await applyAction(deps.db, principal, 'approve', body.ids, deps.jobs)).length,
    };
  },
  async batchCancelBillableItems({ body, principal, deps }) {
    return {
      updated: (await applyAction(deps.db, principal, 'cancel', body.ids, deps.jobs)).length,
    };
  },
  async batchUncancelBillableItems({ body, principal, deps }) {
    return {
      updated: (await applyAction(deps.db, principal, 'uncancel', body.ids, deps.jobs)).length,
    };
  },
  async batchMarkInvoiceSentBillableItems({ body, principal, deps }) {
    return {
      updated: (await applyAction(deps.db, principal, 'markInvoiceSent', body.ids, deps.jobs))
        .length,
    };
  },
  async batchRemoveValidationBillableItems({ body, principal, deps }) {
    return {
      updated: (await applyAction(deps.db, principal, 'removeValidation', body.ids, deps.jobs))
        .length,
    };
  },
  async batchDeleteBillableItems({ body, principal, deps }) {
    await applyAction(deps.db, principal, 'delete', body.ids, deps.jobs);
    return { deleted: body.ids.length };
  },

  async markBillableItemApproved({ params, principal, deps, reply }) {
    await applyToOne(deps.db, principal, 'approve', params.id, deps.jobs);
    return itemById<'markBillableItemApproved'>(deps, reply, principal, params.id);
  },
  async markBillableItemInvoiceSent({ params, principal, deps, reply }) {
    await applyToOne(deps.db, principal, 'markInvoiceSent', params.id, deps.jobs);
    return itemById<'markBillableItemInvoiceSent'>(deps, reply, principal, params.id);
  },
});
