import {
  loadClientDetailActor,
  sendContractReminderActor,
  sendSignInLinkActor,
  setSessionsClosedActor,
} from '../actors/staff/clients';
import { type ClientAction, clientStaffDetailMachine } from '../client-staff-detail.machine';
import type { RouteEffects } from './effects';

/** The staff's client detail wired to the API and the toasts. */

const CLIENT_TOASTS: Record<ClientAction, string> = {
  sessionsClosed: 'staff:toasts.sessionsClosed',
  sessionsOpened: 'staff:toasts.sessionsOpened',
  reminderSent: 'staff:toasts.reminderSent',
  signInLinkSent: 'staff:toasts.signInLinkSent',
};

/** `withAccessLog`: admins also read who opened the client's clinical documents. */
export const wireClientDetail = ({ api, toast }: RouteEffects, withAccessLog = false) =>
  clientStaffDetailMachine.provide({
    actors: {
      loadDetail: loadClientDetailActor(api, withAccessLog),
      setSessionsClosed: setSessionsClosedActor(api),
      sendContractReminder: sendContractReminderActor(api),
      sendSignInLink: sendSignInLinkActor(api),
    },
    actions: {
      notify: (_, { action }) => toast({ kind: 'success', messageKey: CLIENT_TOASTS[action] }),
    },
  });
