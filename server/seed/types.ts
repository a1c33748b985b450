import type { APPOINTMENT_TYPES } from '../../shared/contract/enums';
import type {
  appointments,
  campaigns,
  clients,
  coaches,
  insurers,
  users,
} from '../db/schema/index';

export type AppointmentType = (typeof APPOINTMENT_TYPES)[number];
export type Role = (typeof users.$inferInsert)['role'] & string;

/** A weekly availability block of one coach, for the availability area's table. */
export interface AvailabilityPlan {
  id: string;
  coachId: string;
  kind: 'available';
  /** First day (DTSTART date): the first of the rule's weekdays before the first appointment. */
  startDay: string;
  startTime: string;
  endTime: string;
  /** UTC start of the first occurrence (DTSTART in Europe/Berlin). */
  seriesStart: string;
  /** RFC 5545 RRULE without the prefix, e.g. FREQ=WEEKLY;BYDAY=MO,WE. */
  recurrence: string;
  note: string | null;
}

/** A billing rule, for the billing-rules area's table; unset criteria match everything. */
export interface BillingRulePlan {
  id: string;
  name: string;
  position: number;
  appointmentType: AppointmentType | null;
  insurer: string | null;
  campaign: string | null;
  sponsorPays?: boolean;
  noShow?: boolean;
  cancelledLate?: boolean;
  amountCents: number;
  description: string;
  /** Default standard (19 %); exempt names its legal reason. */
  vatTreatment?: 'standard' | 'exempt';
  vatExemptionReason?: string;
  /** Default client. */
  payerKind?: 'client' | 'sponsor' | 'statutory_insurer' | 'private_insurer';
  active: boolean;
}

export interface DemoAccount {
  role: Role;
  email: string;
  name: string;
}

export interface DemoData {
  users: (typeof users.$inferInsert)[];
  coaches: (typeof coaches.$inferInsert)[];
  insurers: (typeof insurers.$inferInsert)[];
  campaigns: (typeof campaigns.$inferInsert)[];
  clients: (typeof clients.$inferInsert)[];
  appointments: (typeof appointments.$inferInsert)[];
  availability: AvailabilityPlan[];
  billingRules: BillingRulePlan[];
  accounts: DemoAccount[];
}
