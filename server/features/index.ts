import type { Handlers } from '../http/handler';
import type { ConstraintProblems } from '../http/problem';
import { accountHandlers } from './account/index';
import { appointmentsHandlers, clientAppointmentsHandlers } from './appointments/index';
import { authSyncHandlers } from './auth-sync/index';
import { availabilityHandlers } from './availability/index';
import { billableItemHandlers, billingRuleHandlers } from './billing/index';
import { schedulingHandlers } from './scheduling/index';
import { catalogConstraintProblems, catalogHandlers } from './catalog/index';
import { clinicalHandlers } from './clinical/index';
import { notificationsHandlers } from './notifications/index';
import { calendarFeedHandlers } from './calendar-feed/index';
import { calendarsHandlers } from './calendars/index';
import { clientsHandlers } from './clients/index';
import { clientSignupHandlers } from './client-signup/index';
import { coachesHandlers } from './coaches/index';
import { eventsHandlers } from './events/index';
import { invoiceHandlers } from './invoices/index';
import { mailingListHandlers } from './mailing-list/index';
import { practiceHandlers } from './practice/index';
import { meetingsHandlers } from './meetings/index';
import { researchHandlers } from './research/index';
import { supportHandlers } from './support/index';
import { usersConstraintProblems, usersHandlers } from './users/index';
import { webhooksHandlers } from './webhooks/index';

/** Every implemented operation; the rest of the contract answers 501 until its area lands. */
export const allHandlers: Handlers = {
  ...accountHandlers,
  ...usersHandlers,
  ...coachesHandlers,
  ...clientsHandlers,
  ...clientSignupHandlers,
  ...appointmentsHandlers,
  ...clientAppointmentsHandlers,
  ...availabilityHandlers,
  ...schedulingHandlers,
  ...catalogHandlers,
  ...notificationsHandlers,
  ...calendarFeedHandlers,
  ...calendarsHandlers,
  ...eventsHandlers,
  ...meetingsHandlers,
  ...supportHandlers,
  ...authSyncHandlers,
  ...billingRuleHandlers,
  ...billableItemHandlers,
  ...webhooksHandlers,
  ...clinicalHandlers,
  ...invoiceHandlers,
  ...mailingListHandlers,
  ...researchHandlers,
  ...practiceHandlers,
};

/** Each feature's own unique and foreign keys and the problem their violation answers. */
export const allConstraintProblems: ConstraintProblems = {
  ...usersConstraintProblems,
  ...catalogConstraintProblems,
};
