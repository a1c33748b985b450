import { useMemo } from 'react';
import type { BillableItem } from '../../machines/actors/staff/billing';
import type { BillingAction } from '../../../shared/billing-transitions';
import type { BatchWording } from '../parts/BatchParts';
import { formatDate, formatEuro } from '../staff/format';
import { ACTION_LABELS, CONFLICT_REASONS, DONE_LABELS, STATUS_LABELS, personName } from './columns';

/** The /billing words for the shared batch parts (src/views/parts/BatchParts.tsx). */

export { BatchDialog, BatchResult, SelectionBar, type BatchActor } from '../parts/BatchParts';

const BILLING_WORDING = {
  prefix: 'staff:billingItems',
  action: (action: string) => ACTION_LABELS[action as BillingAction] ?? ACTION_LABELS.approve,
  done: (action: string) => DONE_LABELS[action as BillingAction] ?? DONE_LABELS.approve,
  status: (status: string) => STATUS_LABELS[status as BillableItem['status']] ?? status,
  reason: (code: string) => CONFLICT_REASONS[code] ?? CONFLICT_REASONS.invalid_transition!,
  danger: (action: string) => action === 'delete' || action === 'cancel',
} satisfies Omit<BatchWording, 'describe'>;

/** The billing wording; a refused item on screen is named by client, service date and amount. */
export function useBillingWording(rows: readonly BillableItem[]): BatchWording {
  return useMemo(
    () => ({
      ...BILLING_WORDING,
      describe: (id: string) => {
        const row = rows.find((r) => r.id === id);
        return row
          ? `${personName(row.client)}, ${formatDate(row.serviceDate)}, ${formatEuro(row.amountCents)}`
          : null;
      },
    }),
    [rows],
  );
}

/** The billing wording without rows on screen (tests of the bar). */
export const billingWording = (): BatchWording => ({ ...BILLING_WORDING, describe: () => null });
