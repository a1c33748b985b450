import { practiceSettingsValues } from '../../forms/practice-settings-form';
import {
  loadLegalInfoActor,
  loadPracticeSettingsActor,
  savePracticeSettingsActor,
} from '../actors/practice';
import { recordDetailMachine } from '../record-detail.machine';
import { recordFormMachine } from '../record-form.machine';
import { type RouteEffects, savedToast } from './effects';

/** The legal pages (`/impressum`, `/datenschutz`): the practice's details from `GET /legal`. */
export const wireLegalPage = ({ api }: RouteEffects) =>
  recordDetailMachine.provide({ actors: { loadDetail: loadLegalInfoActor(api) } });

/** `/admin/practice` (SUPERADMIN): the practice settings; after saving, back to the hub. */
export const wirePracticeSettingsForm = ({ api, toast, navigate }: RouteEffects) =>
  recordFormMachine.provide({
    actors: {
      loadRecord: loadPracticeSettingsActor(api, practiceSettingsValues),
      saveRecord: savePracticeSettingsActor(api),
    },
    actions: {
      notifySaved: (_, { unchanged }) => {
        toast(savedToast(unchanged, 'admin:toasts.practiceSaved'));
        navigate('/admin');
      },
    },
  });
