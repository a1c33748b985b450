import type { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import type { components } from '../../api/generated/product';
import {
  cancelAppointmentActor,
  loadAppointmentDetailActor,
  loadAppointmentRecordActor,
  resendInvitesActor,
  saveAppointmentActor,
  setNoShowActor,
} from '../actors/staff/appointments';
import {
  loadClientDetailActor,
  loadClientRecordActor,
  saveClientActor,
  sendContractReminderActor,
  setSessionsClosedActor,
} from '../actors/staff/clients';
import { loadCoachActor, loadCoachRecordActor, saveCoachActor, setCoachActiveActor } from '../actors/staff/coaches';
import { loadFilterOptionsActor } from '../actors/staff/filter-options';
import { loadUserActor, loadUserRecordActor, saveUserActor, setUserActiveActor } from '../actors/staff/users';
import { createAppointmentActor, loadSlotsActor } from '../actors/scheduling';
import { appointmentDetailMachine, type AppointmentAction } from '../appointment-detail.machine';
import { appointmentFormValues } from '../appointment-staff-form';
import { clientStaffDetailMachine, type ClientAction } from '../client-staff-detail.machine';
import { clientFormValues } from '../client-staff-form';
import { coachFormValues } from '../coach-staff-form';
import { confirmActionMachine } from '../confirm-action.machine';
import { listMachine, type ListPage, type ListQuery } from '../list.machine';
import { preAppointmentMachine } from '../pre-appointment.machine';
import { recordDetailMachine } from '../record-detail.machine';
import { recordFormMachine } from '../record-form.machine';
import { filterOptionsMachine } from '../staff-filter-options.machine';
import { userFormValues } from '../user-staff-form';
import type { RouteEffects, RouteToast } from './effects';

/** The staff workspace's machines (lists, forms, details) wired to the API, toasts and router. */

/** The toast after a form's save: "nothing changed" or the page's own success message. */
const savedToast = (unchanged: boolean, messageKey: string): RouteToast =>
  unchanged ? { kind: 'info', messageKey: 'staff:toasts.unchanged' } : { kind: 'success', messageKey };

// ---------------------------------------------------------------------------------------------
// Lists

/** A list page whose query lives in its URL at `path`; `loadPage` asks the API for one page. */
export const wireList = (
  { api, navigate }: RouteEffects,
  options: { path: string; loadPage: (api: ApiClient) => ReturnType<typeof fromPromise<ListPage, ListQuery>> },
) =>
  listMachine.provide({
    actors: { loadPage: options.loadPage(api) },
    actions: { syncUrl: (_, params) => navigate(`${options.path}${params.search}`) },
  });

export const wireFilterOptions = ({ api }: RouteEffects) =>
  filterOptionsMachine.provide({ actors: { loadFilterOptions: loadFilterOptionsActor(api) } });

// ---------------------------------------------------------------------------------------------
// Appointments

const APPOINTMENT_TOASTS: Record<AppointmentAction, string> = {
  cancelled: 'staff:toasts.cancelled',
  noShowChanged: 'staff:toasts.noShowChanged',
  invitesSent: 'staff:toasts.invitesSent',
};

export const wireAppointmentDetail = ({ api, toast }: RouteEffects) =>
  appointmentDetailMachine.provide({
    actors: {
      loadDetail: loadAppointmentDetailActor(api),
      cancelAppointment: cancelAppointmentActor(api),
      setNoShow: setNoShowActor(api),
      resendInvites: resendInvitesActor(api, window.location.origin),
    },
    actions: {
      notify: (_, { action }) => toast({ kind: 'success', messageKey: APPOINTMENT_TOASTS[action] }),
    },
  });

export const wireAppointmentForm = ({ api, toast, navigate }: RouteEffects, id: string) =>
  recordFormMachine.provide({
    actors: {
      loadRecord: loadAppointmentRecordActor(api, appointmentFormValues),
      saveRecord: saveAppointmentActor(api),
    },
    actions: {
      notifySaved: (_, { unchanged }) => {
        toast(savedToast(unchanged, 'staff:toasts.appointmentSaved'));
        navigate(`/appointments/${id}`);
      },
    },
  });

// ---------------------------------------------------------------------------------------------
// Clients

const CLIENT_TOASTS: Record<ClientAction, string> = {
  sessionsClosed: 'staff:toasts.sessionsClosed',
  sessionsOpened: 'staff:toasts.sessionsOpened',
  reminderSent: 'staff:toasts.reminderSent',
};

export const wireClientDetail = ({ api, toast }: RouteEffects) =>
  clientStaffDetailMachine.provide({
    actors: {
      loadDetail: loadClientDetailActor(api),
      setSessionsClosed: setSessionsClosedActor(api),
      sendContractReminder: sendContractReminderActor(api),
    },
    actions: {
      notify: (_, { action }) => toast({ kind: 'success', messageKey: CLIENT_TOASTS[action] }),
    },
  });

/** The client form, new (`id` null) or editing; after saving it opens the client. */
export const wireClientForm = ({ api, toast, navigate }: RouteEffects, id: string | null) =>
  recordFormMachine.provide({
    actors: {
      loadRecord: loadClientRecordActor(api, clientFormValues),
      saveRecord: saveClientActor(api),
    },
    actions: {
      notifySaved: (_, { record, unchanged }) => {
        const client = record as components['schemas']['Client'] | null;
        toast(savedToast(unchanged, id === null ? 'staff:toasts.clientCreated' : 'staff:toasts.clientSaved'));
        navigate(`/clients/${client?.id ?? id}`);
      },
    },
  });

/** A new client, then their initial appointment. */
export const wirePreAppointment = ({ api, toast }: RouteEffects) =>
  preAppointmentMachine.provide({
    actors: {
      clientForm: recordFormMachine.provide({
        actors: {
          loadRecord: loadClientRecordActor(api, clientFormValues),
          saveRecord: saveClientActor(api),
        },
        actions: {
          notifySaved: () => toast({ kind: 'success', messageKey: 'staff:toasts.clientCreated' }),
        },
      }),
      loadSlots: loadSlotsActor(api),
      createAppointment: createAppointmentActor(api),
    },
    actions: {
      notifyBooked: () => toast({ kind: 'success', messageKey: 'staff:toasts.initialBooked' }),
    },
  });

// ---------------------------------------------------------------------------------------------
// Coaches

export const wireCoachDetail = ({ api }: RouteEffects) =>
  recordDetailMachine.provide({ actors: { loadDetail: loadCoachActor(api) } });

/** Deactivates or reactivates a coach; `done` runs after the toast (the page reloads the coach). */
export const wireCoachActive = ({ api, toast }: RouteEffects, done: () => void) =>
  confirmActionMachine.provide({
    actors: { runAction: setCoachActiveActor(api) },
    actions: {
      notifyDone: (_, { payload }) => {
        toast({
          kind: 'success',
          messageKey: payload.active ? 'staff:toasts.coachReactivated' : 'staff:toasts.coachDeactivated',
        });
        done();
      },
    },
  });

/** The coach form, new (`id` null) or editing; after saving it opens the coach. */
export const wireCoachForm = ({ api, toast, navigate }: RouteEffects, id: string | null) =>
  recordFormMachine.provide({
    actors: { loadRecord: loadCoachRecordActor(api, coachFormValues), saveRecord: saveCoachActor(api) },
    actions: {
      notifySaved: (_, { record, unchanged }) => {
        const coach = record as components['schemas']['Coach'] | null;
        toast(savedToast(unchanged, id === null ? 'staff:toasts.coachCreated' : 'staff:toasts.coachSaved'));
        navigate(`/coaches/${coach?.id ?? id}`);
      },
    },
  });

// ---------------------------------------------------------------------------------------------
// Users

export const wireUserDetail = ({ api }: RouteEffects) =>
  recordDetailMachine.provide({ actors: { loadDetail: loadUserActor(api) } });

/** Deactivates or reactivates a user; `done` runs after the toast (the page reloads the user). */
export const wireUserActive = ({ api, toast }: RouteEffects, done: () => void) =>
  confirmActionMachine.provide({
    actors: { runAction: setUserActiveActor(api) },
    actions: {
      notifyDone: (_, { payload }) => {
        toast({
          kind: 'success',
          messageKey: payload.active ? 'staff:toasts.userActivated' : 'staff:toasts.userDeactivated',
        });
        done();
      },
    },
  });

/** A new user: the page then shows the one-time activation code. */
export const wireUserNew = ({ api, toast }: RouteEffects) =>
  recordFormMachine.provide({
    actors: { saveRecord: saveUserActor(api) },
    actions: {
      notifySaved: () => toast({ kind: 'success', messageKey: 'staff:toasts.userCreated' }),
    },
  });

export const wireUserForm = ({ api, toast, navigate }: RouteEffects) =>
  recordFormMachine.provide({
    actors: { loadRecord: loadUserRecordActor(api, userFormValues), saveRecord: saveUserActor(api) },
    actions: {
      notifySaved: (_, { unchanged }) => {
        toast(savedToast(unchanged, 'staff:toasts.userSaved'));
        navigate('/users');
      },
    },
  });
