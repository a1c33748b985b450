import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { clientFormSchema, newClientValues } from '../../forms/client-staff-form';
import { wireClientForm } from '../../machines/wiring/client-form';
import { NewOrEditFormPage } from '../staff/StaffFormPage';
import { useFilterOptions, useStaffSession } from '../staff/useUrlList';
import { ClientFormFields } from './ClientFormFields';

/** `/clients/new` and `/clients/{clientId}/edit`. */
function ClientForm({ id }: { id: string | null }) {
  const { t } = useTranslation('staff');
  const { manager } = useStaffSession();
  const options = useFilterOptions(manager);
  return (
    <NewOrEditFormPage
      id={id}
      wire={wireClientForm}
      schema={clientFormSchema}
      newValues={newClientValues}
      titles={{ new: t('clientForm.newTitle'), edit: t('clientForm.editTitle') }}
      createLabel={t('clientForm.create')}
      listHref="/clients"
    >
      {(actorRef) => (
        <ClientFormFields
          actorRef={actorRef}
          coaches={manager ? options.coaches.filter((c) => c.active) : []}
          catalog={options}
        />
      )}
    </NewOrEditFormPage>
  );
}

export function ClientNewPage() {
  return <ClientForm id={null} />;
}

export function ClientEditPage() {
  const { clientId } = useParams<{ clientId: string }>();
  return <ClientForm key={clientId} id={clientId} />;
}
