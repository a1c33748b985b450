import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import {
  APPOINTMENT_TYPES,
  BILLING_PAYER_KINDS,
  CLIENT_TYPES,
} from '../../../shared/contract/enums';
import { billingRuleFormSchema, newBillingRuleValues } from '../../forms/billing-rule-form';
import { wireBillingRuleForm } from '../../machines/wiring/billing-rules';
import type { FilterOptions } from '../../machines/staff-filter-options.machine';
import { CatalogChoices } from '../clients/CatalogChoices';
import { CheckField, type FormActor, SelectField, TextField } from '../staff/FormParts';
import { useFilterOptions } from '../staff/useUrlList';
import { NewOrEditFormPage } from '../staff/StaffFormPage';
import '../staff/staff.css';

/** `/billing/rules/new` and `/billing/rules/{ruleId}/edit`: the record form with every criterion and outcome. */
function BillingRuleForm({ id }: { id: string | null }) {
  const { t } = useTranslation(['billingRules', 'staff']);
  // Insurer and campaign are picked from the maintained lists (the client form's choices).
  const catalog = useFilterOptions(false);
  return (
    <NewOrEditFormPage
      id={id}
      wire={wireBillingRuleForm}
      schema={billingRuleFormSchema}
      newValues={newBillingRuleValues}
      titles={{ new: t('form.newTitle'), edit: t('form.editTitle') }}
      createLabel={t('form.create')}
      listHref="/billing/rules"
      recordHref={() => '/billing/rules'}
    >
      {(actorRef) => <RuleFields actorRef={actorRef} catalog={catalog} />}
    </NewOrEditFormPage>
  );
}

function RuleFields({ actorRef, catalog }: { actorRef: FormActor; catalog: FilterOptions }) {
  const { t } = useTranslation(['billingRules', 'staff']);
  const exempt = useSelector(actorRef, (s) => s.context.values.vatTreatment === 'exempt');
  const any = { value: '', label: t('form.any') };
  const yesNo = [
    any,
    { value: 'true', label: t('form.yes') },
    { value: 'false', label: t('form.no') },
  ];
  return (
    <>
      <TextField
        actorRef={actorRef}
        name="name"
        label={t('form.name')}
        required
        maxLength={100}
        autoComplete="off"
      />
      <fieldset>
        <legend>{t('form.criteriaTitle')}</legend>
        <p className="field-hint">{t('form.criteriaHint')}</p>
        <SelectField
          actorRef={actorRef}
          name="appointmentType"
          label={t('form.appointmentType')}
          options={[
            any,
            ...APPOINTMENT_TYPES.map((v) => ({
              value: v,
              label: t(`staff:appointmentTypes.${v}`),
            })),
          ]}
        />
        <CatalogChoices
          actorRef={actorRef}
          options={catalog}
          insurerLabel={t('form.insurer')}
          campaignLabel={t('form.campaign')}
          none={{ insurer: t('form.anyInsurer'), campaign: t('form.anyCampaign') }}
          hints={{ insurer: t('form.insurerHint'), campaign: t('form.campaignHint') }}
          offerInactive
        />
        <SelectField
          actorRef={actorRef}
          name="clientType"
          label={t('form.clientType')}
          options={[any, ...CLIENT_TYPES.map((v) => ({ value: v, label: t(`clientTypes.${v}`) }))]}
        />
        <SelectField
          actorRef={actorRef}
          name="sponsorPays"
          label={t('form.sponsorPays')}
          options={yesNo}
        />
        <SelectField actorRef={actorRef} name="noShow" label={t('form.noShow')} options={yesNo} />
        <SelectField
          actorRef={actorRef}
          name="cancelledLate"
          label={t('form.cancelledLate')}
          options={yesNo}
        />
        <TextField actorRef={actorRef} name="validFrom" type="date" label={t('form.validFrom')} />
        <TextField actorRef={actorRef} name="validTo" type="date" label={t('form.validTo')} />
      </fieldset>
      <fieldset>
        <legend>{t('form.resultTitle')}</legend>
        <TextField
          actorRef={actorRef}
          name="amount"
          label={t('form.amount')}
          hint={t('form.amountHint')}
          required
          autoComplete="off"
        />
        <TextField
          actorRef={actorRef}
          name="description"
          type="textarea"
          label={t('form.description')}
          required
          maxLength={500}
        />
        <SelectField
          actorRef={actorRef}
          name="vatTreatment"
          label={t('form.vatTreatment')}
          options={[
            { value: 'standard', label: t('form.vatStandard') },
            { value: 'exempt', label: t('form.vatExempt') },
          ]}
        />
        {exempt ? (
          <TextField
            actorRef={actorRef}
            name="vatExemptionReason"
            label={t('form.vatExemptionReason')}
            hint={t('form.vatExemptionReasonHint')}
            required
            maxLength={300}
          />
        ) : null}
        <SelectField
          actorRef={actorRef}
          name="payerKind"
          label={t('form.payerKind')}
          options={BILLING_PAYER_KINDS.map((v) => ({ value: v, label: t(`payerKinds.${v}`) }))}
        />
        <CheckField actorRef={actorRef} name="active" label={t('form.active')} />
      </fieldset>
    </>
  );
}

export function BillingRuleNewPage() {
  return <BillingRuleForm id={null} />;
}

export function BillingRuleEditPage() {
  const { ruleId } = useParams<{ ruleId: string }>();
  return <BillingRuleForm key={ruleId} id={ruleId} />;
}
