import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import {
  campaignFormSchema,
  insurerFormSchema,
  newCampaignValues,
  newInsurerValues,
} from '../../forms/catalog-form';
import { wireCampaignForm, wireInsurerForm } from '../../machines/wiring/catalog';
import { CheckField, TextField, type FormActor } from '../staff/FormParts';
import { NewOrEditFormPage } from '../staff/StaffFormPage';

/** The payer's invoice address (§ 14 UStG): printed on its invoices and the XRechnung buyer. */
function InvoiceAddressFields({ actorRef }: { actorRef: FormActor }) {
  const { t } = useTranslation('catalog');
  return (
    <fieldset className="invoice-address">
      <legend>{t('address.legend')}</legend>
      <p className="field-hint">{t('address.hint')}</p>
      <TextField
        actorRef={actorRef}
        name="street"
        label={t('address.street')}
        maxLength={200}
        autoComplete="off"
      />
      <TextField
        actorRef={actorRef}
        name="postalCode"
        label={t('address.postalCode')}
        maxLength={16}
        autoComplete="off"
      />
      <TextField
        actorRef={actorRef}
        name="city"
        label={t('address.city')}
        maxLength={100}
        autoComplete="off"
      />
      <TextField
        actorRef={actorRef}
        name="country"
        label={t('address.country')}
        hint={t('address.countryHint')}
        maxLength={2}
        autoComplete="off"
      />
      <TextField
        actorRef={actorRef}
        name="invoiceEmail"
        type="email"
        label={t('address.invoiceEmail')}
        hint={t('address.invoiceEmailHint')}
        maxLength={254}
        autoComplete="off"
      />
    </fieldset>
  );
}

/** `/admin/insurers/new` and `/admin/insurers/{id}/edit`: the generic record form. */
function InsurerForm({ id }: { id: string | null }) {
  const { t } = useTranslation('catalog');
  return (
    <NewOrEditFormPage
      id={id}
      wire={wireInsurerForm}
      schema={insurerFormSchema}
      newValues={newInsurerValues}
      titles={{ new: t('insurers.newTitle'), edit: t('insurers.editTitle') }}
      createLabel={t('insurers.create')}
      listHref="/admin/insurers"
      recordHref={() => '/admin/insurers'}
    >
      {(actorRef) => (
        <>
          <TextField
            actorRef={actorRef}
            name="name"
            label={t('insurers.name')}
            hint={t('insurers.nameHint')}
            required
            maxLength={100}
            autoComplete="off"
          />
          <TextField
            actorRef={actorRef}
            name="ikNumber"
            label={t('insurers.ikNumber')}
            hint={t('insurers.ikNumberHint')}
            required
            maxLength={9}
            autoComplete="off"
          />
          <InvoiceAddressFields actorRef={actorRef} />
          <CheckField actorRef={actorRef} name="active" label={t('activeField')} />
          <p className="field-hint">{t('activeHint')}</p>
        </>
      )}
    </NewOrEditFormPage>
  );
}

/** `/admin/campaigns/new` and `/admin/campaigns/{id}/edit`. */
function CampaignForm({ id }: { id: string | null }) {
  const { t } = useTranslation('catalog');
  return (
    <NewOrEditFormPage
      id={id}
      wire={wireCampaignForm}
      schema={campaignFormSchema}
      newValues={newCampaignValues}
      titles={{ new: t('campaigns.newTitle'), edit: t('campaigns.editTitle') }}
      createLabel={t('campaigns.create')}
      listHref="/admin/campaigns"
      recordHref={() => '/admin/campaigns'}
    >
      {(actorRef) => (
        <>
          <TextField
            actorRef={actorRef}
            name="name"
            label={t('campaigns.name')}
            required
            maxLength={100}
            autoComplete="off"
          />
          <TextField
            actorRef={actorRef}
            name="code"
            label={t('campaigns.code')}
            hint={t('campaigns.codeHint')}
            required
            maxLength={64}
            autoComplete="off"
          />
          <TextField
            actorRef={actorRef}
            name="description"
            type="textarea"
            label={t('campaigns.description')}
            maxLength={5000}
          />
          <TextField
            actorRef={actorRef}
            name="startsOn"
            type="date"
            label={t('campaigns.startsOn')}
          />
          <TextField
            actorRef={actorRef}
            name="endsOn"
            type="date"
            label={t('campaigns.endsOn')}
            hint={t('campaigns.endsOnHint')}
          />
          <InvoiceAddressFields actorRef={actorRef} />
          <CheckField actorRef={actorRef} name="active" label={t('activeField')} />
          <p className="field-hint">{t('activeHint')}</p>
        </>
      )}
    </NewOrEditFormPage>
  );
}

export function InsurerNewPage() {
  return <InsurerForm id={null} />;
}

export function InsurerEditPage() {
  const { id } = useParams<{ id: string }>();
  return <InsurerForm key={id} id={id} />;
}

export function CampaignNewPage() {
  return <CampaignForm id={null} />;
}

export function CampaignEditPage() {
  const { id } = useParams<{ id: string }>();
  return <CampaignForm key={id} id={id} />;
}
