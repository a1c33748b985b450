import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import type { components } from '../../../../shared/contract/product';
import type { LoadedRecord } from '../../record-form.machine';
import { findOrNotFound, loadRecordActor, saveRecordActor } from './record';

/** The billing rules screen's calls (`/admin/billing-rules…`, ADMIN and SUPERADMIN). */

export type BillingRule = components['schemas']['BillingRule'];
export type BillingRulePreview = components['schemas']['BillingRulePreview'];

/** `GET /admin/billing-rules`: every rule in evaluation order. */
export const loadBillingRulesActor = (api: ApiClient) =>
  fromPromise<BillingRule[], void>(async ({ signal }) => {
    const { data } = await api.GET('/admin/billing-rules', { signal });
    return data!.billingRules;
  });

/** `PUT /admin/billing-rules/reorder` with every id in the new order; 409 `stale_rule_order` when the set changed. */
export const reorderBillingRulesActor = (api: ApiClient) =>
  fromPromise<BillingRule[], { ids: string[] }>(async ({ input, signal }) => {
    const { data } = await api.PUT('/admin/billing-rules/reorder', {
      body: { ids: input.ids },
      signal,
    });
    return data!.billingRules;
  });

/** `DELETE /admin/billing-rules/{id}` (items keep their snapshot). */
export const deleteBillingRuleActor = (api: ApiClient) =>
  fromPromise<unknown, { id: string }>(async ({ input, signal }) => {
    await api.DELETE('/admin/billing-rules/{id}', { params: { path: { id: input.id } }, signal });
    return null;
  });

/** `GET /admin/billing-rules/preview?appointmentId=`. */
export const previewBillingRulesActor = (api: ApiClient) =>
  fromPromise<BillingRulePreview, { appointmentId: string }>(async ({ input, signal }) => {
    const { data } = await api.GET('/admin/billing-rules/preview', {
      params: { query: { appointmentId: input.appointmentId } },
      signal,
    });
    return data!;
  });

/** One rule as form values (the API has no single-rule read; rules are few). */
export const loadBillingRuleRecordActor = (
  api: ApiClient,
  toValues: (rule: BillingRule) => LoadedRecord['values'],
) =>
  loadRecordActor(
    async (id, signal) =>
      findOrNotFound((await api.GET('/admin/billing-rules', { signal })).data!.billingRules, id),
    toValues,
  );

/** `POST /admin/billing-rules` (new, appended at the end) or `PUT /admin/billing-rules/{id}` (changed fields, a new version). */
export const saveBillingRuleActor = (api: ApiClient) =>
  saveRecordActor({
    create: (body: components['schemas']['CreateBillingRuleRequest'], signal, header) =>
      api.POST('/admin/billing-rules', { params: { header }, body, signal }),
    update: (id, body: components['schemas']['UpdateBillingRuleRequest'], signal) =>
      api.PUT('/admin/billing-rules/{id}', { params: { path: { id } }, body, signal }),
  });

/** `GET /appointments?clientId=` newest first: the appointments the preview offers for one client (at most 100). */
export const loadClientAppointmentsActor = (api: ApiClient) =>
  fromPromise<components['schemas']['Appointment'][], { clientId: string }>(
    async ({ input, signal }) => {
      const { data } = await api.GET('/appointments', {
        params: { query: { clientId: input.clientId, sortDirection: 'desc', limit: 100 } },
        signal,
      });
      return data!.appointments;
    },
  );
