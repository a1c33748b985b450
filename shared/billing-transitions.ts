import type { components } from './contract/product';

export type BillableItemStatus = components['schemas']['BillableItemStatus'];

/** What staff can do to a billable item (one per spec action, single and batch). */
export type BillingAction =
  'approve' | 'cancel' | 'uncancel' | 'markInvoiceSent' | 'removeValidation' | 'delete';

/**
 * The one table of allowed transitions, read by the server's handlers and by the web app
 * (which offers an action only where it is allowed). `to: null` removes the item. An item
 * whose invoice is sent allows nothing: it is corrected by a cancellation invoice.
 * `uncancel` lands on pending, or on validation_failed when the checks fail again.
 */
export const BILLING_TRANSITIONS: Record<
  BillingAction,
  { from: readonly BillableItemStatus[]; to: BillableItemStatus | null }
> = {
  approve: { from: ['pending'], to: 'approved' },
  cancel: { from: ['pending', 'validation_failed', 'approved'], to: 'cancelled' },
  uncancel: { from: ['cancelled'], to: 'pending' },
  markInvoiceSent: { from: ['approved'], to: 'invoice_sent' },
  removeValidation: { from: ['validation_failed'], to: 'pending' },
  delete: { from: ['pending', 'validation_failed', 'cancelled'], to: null },
};

export const BILLING_ACTIONS = Object.keys(BILLING_TRANSITIONS) as BillingAction[];

/** Whether `action` is allowed on an item in `status`. */
export function canApplyBillingAction(action: BillingAction, status: BillableItemStatus): boolean {
  return BILLING_TRANSITIONS[action].from.includes(status);
}

/** The actions an item in `status` allows, in table order (for a row's menu). */
export function billingActionsFor(status: BillableItemStatus): BillingAction[] {
  return BILLING_ACTIONS.filter((action) => canApplyBillingAction(action, status));
}

/**
 * Not a staff action (so not in the table or the menus): cancelling an invoice by a
 * cancellation invoice returns its items to approved, whether it had been sent or not.
 */
export const INVOICE_CANCELLATION_RETURNS = {
  from: ['invoice_sent', 'approved'] as const satisfies readonly BillableItemStatus[],
  to: 'approved' as const satisfies BillableItemStatus,
};
