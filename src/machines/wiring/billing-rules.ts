import { billingRuleFormValues } from '../../forms/billing-rule-form';
import {
  deleteBillingRuleActor,
  loadClientAppointmentsActor,
  loadBillingRuleRecordActor,
  loadBillingRulesActor,
  previewBillingRulesActor,
  reorderBillingRulesActor,
  saveBillingRuleActor,
} from '../actors/staff/billing-rules';
import { billingRulesMachine } from '../billing-rules.machine';
import { recordFormMachine } from '../record-form.machine';
import { type RouteEffects, savedToast } from './effects';

/** `/billing/rules` wired to the API and the toasts. */
export const wireBillingRules = ({ api, toast }: RouteEffects) =>
  billingRulesMachine.provide({
    actors: {
      loadRules: loadBillingRulesActor(api),
      reorderRules: reorderBillingRulesActor(api),
      deleteRule: deleteBillingRuleActor(api),
      previewRules: previewBillingRulesActor(api),
      loadClientAppointments: loadClientAppointmentsActor(api),
    },
    actions: {
      notifyDeleted: (_, { name }) =>
        toast({ kind: 'success', messageKey: 'billingRules:toasts.deleted', values: { name } }),
    },
  });

/** The rule form, new (`id` null) or editing; after saving it goes back to the list. */
export const wireBillingRuleForm = ({ api, toast, navigate }: RouteEffects, id: string | null) =>
  recordFormMachine.provide({
    actors: {
      loadRecord: loadBillingRuleRecordActor(api, billingRuleFormValues),
      saveRecord: saveBillingRuleActor(api),
    },
    actions: {
      notifySaved: (_, { unchanged }) => {
        toast(
          savedToast(
            unchanged,
            id === null ? 'billingRules:toasts.created' : 'billingRules:toasts.saved',
          ),
        );
        navigate('/billing/rules');
      },
    },
  });
