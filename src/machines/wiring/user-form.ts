import { loadUserRecordActor, saveUserActor } from '../actors/staff/users';
import { recordFormMachine } from '../record-form.machine';
import { userFormValues } from '../../forms/user-staff-form';
import { type RouteEffects, savedToast } from './effects';

/** The user forms (new, edit) wired to the API, the toasts and the router. */

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
    actors: {
      loadRecord: loadUserRecordActor(api, userFormValues),
      saveRecord: saveUserActor(api),
    },
    actions: {
      notifySaved: (_, { unchanged }) => {
        toast(savedToast(unchanged, 'staff:toasts.userSaved'));
        navigate('/users');
      },
    },
  });
