import type { ThinData } from './emit';

/**
 * What a webhook says about an appointment: ids, times and kinds, no health data. Receivers
 * that need more ask the API with their own permissions (the spec's thin payloads).
 */
export const appointmentData = (a: {
  id: string;
  clientId: string;
  coachId: string;
  startDate: string;
  endDate: string;
  appointmentType?: string;
}): ThinData => ({
  appointmentId: a.id,
  clientId: a.clientId,
  coachId: a.coachId,
  startDate: a.startDate,
  endDate: a.endDate,
  ...(a.appointmentType ? { appointmentType: a.appointmentType } : {}),
});

/** A client: the id and who coaches them; names, contact and health fields never. */
export const clientData = (clientId: string, coachId: string | null): ThinData => ({
  clientId,
  coachId,
});

export const billableItemData = (item: {
  id: string;
  appointmentId: string;
  clientId: string;
  coachId: string | null;
  status: string;
}): ThinData => ({
  billableItemId: item.id,
  appointmentId: item.appointmentId,
  clientId: item.clientId,
  coachId: item.coachId,
  status: item.status,
});

/** A signed summary: which one, whose, who signed and when; never its content. */
export const summarySignedData = (summary: {
  id: string;
  appointmentId: string;
  clientId: string;
  coachId: string;
  signedById: string | null;
  signedAt: string | null;
}): ThinData => ({
  summaryId: summary.id,
  appointmentId: summary.appointmentId,
  clientId: summary.clientId,
  coachId: summary.coachId,
  signedById: summary.signedById,
  signedAt: summary.signedAt === null ? null : new Date(summary.signedAt).toISOString(),
});
