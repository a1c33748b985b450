import { campaignFormValues, insurerFormValues } from '../../forms/catalog-form';
import {
  loadCampaignRecordActor,
  loadInsurerRecordActor,
  saveCampaignActor,
  saveInsurerActor,
} from '../actors/staff/catalog';
import { recordFormMachine } from '../record-form.machine';
import { type RouteEffects, savedToast } from './effects';

/** The forms of the maintained lists wired to the API, the toasts and the router: after saving, back to the list. */

export const wireInsurerForm = ({ api, toast, navigate }: RouteEffects, id: string | null) =>
  recordFormMachine.provide({
    actors: {
      loadRecord: loadInsurerRecordActor(api, insurerFormValues),
      saveRecord: saveInsurerActor(api),
    },
    actions: {
      notifySaved: (_, { unchanged }) => {
        toast(
          savedToast(
            unchanged,
            id === null ? 'catalog:toasts.insurerCreated' : 'catalog:toasts.insurerSaved',
          ),
        );
        navigate('/admin/insurers');
      },
    },
  });

export const wireCampaignForm = ({ api, toast, navigate }: RouteEffects, id: string | null) =>
  recordFormMachine.provide({
    actors: {
      loadRecord: loadCampaignRecordActor(api, campaignFormValues),
      saveRecord: saveCampaignActor(api),
    },
    actions: {
      notifySaved: (_, { unchanged }) => {
        toast(
          savedToast(
            unchanged,
            id === null ? 'catalog:toasts.campaignCreated' : 'catalog:toasts.campaignSaved',
          ),
        );
        navigate('/admin/campaigns');
      },
    },
  });
