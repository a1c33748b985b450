import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { tKey } from '../../i18n/keys';
import { CLIENT_TYPES, REJECTION_REASONS } from '../../../shared/contract/enums';
import type { FilterOptions } from '../../machines/staff-filter-options.machine';
import { CheckField, SelectField, TextField, type FormActor } from '../staff/FormParts';
import { CatalogChoices, ExistingClientOfCoach } from './CatalogChoices';
import { useSessionPermission } from '../session-status';

export const REJECTION_LABELS: Record<(typeof REJECTION_REASONS)[number], string> = {
  not_reachable: tKey('staff:rejection.not_reachable'),
  not_eligible: tKey('staff:rejection.not_eligible'),
  no_interest: tKey('staff:rejection.no_interest'),
  declined_contract: tKey('staff:rejection.declined_contract'),
  other: tKey('staff:rejection.other'),
};

/** The client's fields (`src/forms/client-staff-form.ts`), grouped. */
export function ClientFormFields({
  actorRef,
  coaches,
  catalog,
  full = true,
}: {
  actorRef: FormActor;
  /** Coaches to choose from; empty: the coach is not changed here. */
  coaches: FilterOptions['coaches'];
  /**
   * The maintained insurers and campaigns (and, for those who may set it, every coach for
   * "Bestandsklient:in von Coach"); the insurer and campaign are picked from them.
   */
  catalog: FilterOptions;
  /** false: only what onboarding needs (pre-appointment). */
  full?: boolean;
}) {
  const { t } = useTranslation('staff');
  const relative = useSelector(actorRef, (s) => s.context.values.clientType === 'relative');
  // The clinical fields only for whoever may read them (the server refuses them otherwise).
  const clinical = useSessionPermission('readClinical');
  return (
    <>
      <fieldset>
        <legend>{t('clientForm.person')}</legend>
        <TextField
          actorRef={actorRef}
          name="firstName"
          label={t('clientForm.firstName')}
          required
          maxLength={100}
          autoComplete="off"
        />
        <TextField
          actorRef={actorRef}
          name="lastName"
          label={t('clientForm.lastName')}
          required
          maxLength={100}
          autoComplete="off"
        />
        <TextField
          actorRef={actorRef}
          name="yearOfBirth"
          label={t('clientForm.yearOfBirth')}
          hint={t('clientForm.yearOfBirthHint')}
        />
        <SelectField
          actorRef={actorRef}
          name="clientType"
          label={t('clientForm.clientType')}
          options={CLIENT_TYPES.map((type) => ({ value: type, label: t(`clientTypes.${type}`) }))}
        />
      </fieldset>
      {relative ? (
        <fieldset>
          <legend>{t('clientForm.contactPerson')}</legend>
          <TextField
            actorRef={actorRef}
            name="contactPerson.firstName"
            label={t('clientForm.firstName')}
            required
          />
          <TextField
            actorRef={actorRef}
            name="contactPerson.lastName"
            label={t('clientForm.lastName')}
            required
          />
          <TextField
            actorRef={actorRef}
            name="contactPerson.email"
            type="email"
            label={t('clientForm.email')}
          />
          <TextField
            actorRef={actorRef}
            name="contactPerson.telephone"
            type="tel"
            label={t('clientForm.telephone')}
          />
        </fieldset>
      ) : null}
      <fieldset>
        <legend>{t('clientForm.contact')}</legend>
        <TextField
          actorRef={actorRef}
          name="email"
          type="email"
          label={t('clientForm.email')}
          maxLength={254}
        />
        <TextField
          actorRef={actorRef}
          name="telephone"
          type="tel"
          label={t('clientForm.telephone')}
          maxLength={40}
        />
        {full ? (
          <TextField
            actorRef={actorRef}
            name="additionalTelephoneNumbers"
            label={t('clientForm.additionalTelephoneNumbers')}
            hint={t('clientForm.additionalTelephoneNumbersHint')}
            maxLength={200}
          />
        ) : null}
        <CheckField actorRef={actorRef} name="notifyViaSms" label={t('clientForm.notifyViaSms')} />
        <CheckField
          actorRef={actorRef}
          name="newsletterConsent"
          label={t('clientForm.newsletterConsent')}
        />
        {full ? (
          <>
            <TextField
              actorRef={actorRef}
              name="street"
              label={t('clientForm.street')}
              maxLength={200}
            />
            <TextField
              actorRef={actorRef}
              name="postalCode"
              label={t('clientForm.postalCode')}
              maxLength={16}
            />
            <TextField
              actorRef={actorRef}
              name="city"
              label={t('clientForm.city')}
              maxLength={100}
            />
            <TextField
              actorRef={actorRef}
              name="country"
              label={t('clientForm.country')}
              hint={t('clientForm.countryHint')}
              maxLength={2}
            />
          </>
        ) : null}
      </fieldset>
      <fieldset>
        <legend>{t('clientForm.coaching')}</legend>
        <CatalogChoices
          actorRef={actorRef}
          options={catalog}
          insurerLabel={t('clientForm.insurer')}
          campaignLabel={t('clientForm.campaign')}
        />
        <TextField
          actorRef={actorRef}
          name="insurerCode"
          label={t('clientForm.insurerCode')}
          maxLength={64}
        />
        {coaches.length > 0 ? (
          <>
            <SelectField
              actorRef={actorRef}
              name="coachedById"
              label={t('clientForm.coach')}
              options={[
                { value: '', label: t('clientForm.noCoach') },
                ...coaches.map((c) => ({ value: c.id, label: c.name })),
              ]}
            />
            <ExistingClientOfCoach actorRef={actorRef} coaches={catalog.coaches} />
          </>
        ) : null}
        <TextField
          actorRef={actorRef}
          name="howDidYouHearAboutUs"
          label={t('clientForm.howDidYouHearAboutUs')}
          maxLength={500}
        />
        <CheckField
          actorRef={actorRef}
          name="wantsToProvideRecordingsForResearch"
          label={t('clientForm.research')}
        />
        <CheckField
          actorRef={actorRef}
          name="paidBySponsor"
          label={t('clientForm.paidBySponsor')}
        />
        <CheckField
          actorRef={actorRef}
          name="hasNotSignedRequiredContract"
          label={t('clientForm.contractMissing')}
        />
      </fieldset>
      {full ? (
        <>
          {clinical ? (
            <fieldset>
              <legend>{t('clientForm.health')}</legend>
              <TextField
                actorRef={actorRef}
                name="diagnosis"
                type="textarea"
                label={t('clientForm.diagnosis')}
                maxLength={5000}
              />
              <TextField
                actorRef={actorRef}
                name="initialDiagnosis"
                type="date"
                label={t('clientForm.initialDiagnosis')}
              />
              <TextField
                actorRef={actorRef}
                name="mentalStressIndicator"
                label={t('clientForm.mentalStressIndicator')}
                hint={t('clientForm.mentalStressIndicatorHint')}
              />
            </fieldset>
          ) : null}
          <fieldset>
            <legend>
              {clinical ? t('clientForm.rejectionAndNotes') : t('clientForm.rejection')}
            </legend>
            <SelectField
              actorRef={actorRef}
              name="rejectionReasonType"
              label={t('clientForm.rejectionReasonType')}
              options={[
                { value: '', label: t('clientForm.noRejection') },
                ...REJECTION_REASONS.map((r) => ({ value: r, label: t(REJECTION_LABELS[r]) })),
              ]}
            />
            <TextField
              actorRef={actorRef}
              name="rejectionReasonNotes"
              type="textarea"
              label={t('clientForm.rejectionReasonNotes')}
              maxLength={5000}
            />
            {clinical ? (
              <TextField
                actorRef={actorRef}
                name="notes"
                type="textarea"
                label={t('clientForm.notes')}
                maxLength={5000}
              />
            ) : null}
          </fieldset>
        </>
      ) : null}
    </>
  );
}
