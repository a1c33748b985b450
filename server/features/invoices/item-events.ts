import type { EventType } from '../../../shared/contract/enums';
/** The `billable_item.*` event an invoice action writes for each item it carries or returns. */
export function itemEvent(
  type: EventType,
  item: { id: string; appointmentId: string; clientId: string; coachId: string },
  actorUserId: string | null,
  changes: Record<string, unknown>,
) {
  return {
    type,
    entityType: 'billable_item',
    entityId: item.id,
    actorUserId,
    appointmentId: item.appointmentId,
    clientId: item.clientId,
    coachId: item.coachId,
    source: 'business' as const,
    important: true,
    changes,
  };
}
