import { describe, expect, it } from 'vitest';
import {
  BILLING_ACTIONS,
  BILLING_TRANSITIONS,
  billingActionsFor,
  canApplyBillingAction,
} from '../../shared/billing-transitions';
import { BILLABLE_ITEM_STATUSES } from '../../shared/contract/enums';

// The spec's six actions against the five statuses: every pair, allowed or refused.
const ALLOWED: Record<string, string[]> = {
  pending: ['approve', 'cancel', 'delete'],
  validation_failed: ['cancel', 'removeValidation', 'delete'],
  approved: ['cancel', 'markInvoiceSent'],
  invoice_sent: [],
  cancelled: ['uncancel', 'delete'],
};

describe('billing transition table', () => {
  it('names the six actions of the spec', () => {
    expect([...BILLING_ACTIONS].sort()).toEqual(
      ['approve', 'cancel', 'delete', 'markInvoiceSent', 'removeValidation', 'uncancel'].sort(),
    );
  });

  for (const status of BILLABLE_ITEM_STATUSES) {
    for (const action of BILLING_ACTIONS) {
      const allowed = ALLOWED[status]!.includes(action);
      it(`${action} on ${status}: ${allowed ? 'allowed' : 'refused'}`, () => {
        expect(canApplyBillingAction(action, status)).toBe(allowed);
      });
    }
  }

  it('lists the actions per status in table order', () => {
    for (const status of BILLABLE_ITEM_STATUSES) {
      expect(billingActionsFor(status).sort()).toEqual([...ALLOWED[status]!].sort());
    }
  });

  it('an invoiced item can be neither deleted nor cancelled', () => {
    expect(billingActionsFor('invoice_sent')).toEqual([]);
  });

  it('targets', () => {
    expect(BILLING_TRANSITIONS.approve.to).toBe('approved');
    expect(BILLING_TRANSITIONS.cancel.to).toBe('cancelled');
    expect(BILLING_TRANSITIONS.uncancel.to).toBe('pending');
    expect(BILLING_TRANSITIONS.markInvoiceSent.to).toBe('invoice_sent');
    expect(BILLING_TRANSITIONS.removeValidation.to).toBe('pending');
    expect(BILLING_TRANSITIONS.delete.to).toBeNull();
  });
});
