import type { Handlers } from '../http/handler';
import { accountHandlers } from './account/handlers';
import { appointmentsHandlers } from './appointments/handlers';
import { clientAppointmentsHandlers } from './appointments/client-handlers';
import { authSyncHandlers } from './auth-sync/handlers';
import { availabilityHandlers } from './availability/handlers';
import { schedulingHandlers } from './scheduling/handlers';
import { catalogHandlers } from './catalog/handlers';
import { notificationsHandlers } from './notifications/handlers';
import { calendarFeedHandlers } from './calendar-feed/handlers';
import { clientsHandlers } from './clients/handlers';
import { clientSignupHandlers } from './client-signup/handlers';
import { coachesHandlers } from './coaches/handlers';
import { eventsHandlers } from './events/handlers';
import { meetingsHandlers } from './meetings/handlers';
import { supportHandlers } from './support/handlers';
import { usersHandlers } from './users/handlers';

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
  ...eventsHandlers,
  ...meetingsHandlers,
  ...supportHandlers,
  ...authSyncHandlers,
};
