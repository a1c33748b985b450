import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { clientFormSchema, newClientValues } from '../../forms/client-staff-form';
import { RecordForm } from '../staff/FormParts';
import { useFilterOptions, useStaffSession } from '../staff/useUrlList';
import { ClientFormFields } from './ClientFormFields';
import { wireClientForm } from '../../machines/wiring/client-form';
import { useRouteActor } from '../route-actor';
import '../staff/staff.css';

/** `/clients/new` and `/clients/{clientId}/edit`. */
function ClientForm({ id }: { id: string | null }) {
  const { t } = useTranslation('staff');
  const { manager } = useStaffSession();
  const options = useFilterOptions(manager);
  const actorRef = useRouteActor((effects) => wireClientForm(effects, id), {
    input: id === null ? { id: null, schema: clientFormSchema, values: newClientValues() } : { id, schema: clientFormSchema },
  });
  const title = id === null ? t('clientForm.newTitle') : t('clientForm.editTitle');
  return (
    <article className="staff-page">
      <h1>{title}</h1>
      <RecordForm
        actorRef={actorRef}
        label={title}
        submitLabel={id === null ? t('clientForm.create') : t('form.save')}
        actions={
          <Link href={id === null ? '/clients' : `/clients/${id}`} className="button">
            {t('form.cancel')}
          </Link>
        }
      >
        <ClientFormFields actorRef={actorRef} coaches={manager ? options.coaches.filter((c) => c.active) : []} />
      </RecordForm>
    </article>
  );
}

export function ClientNewPage() {
  return <ClientForm id={null} />;
}

export function ClientEditPage() {
  const { clientId } = useParams<{ clientId: string }>();
  return <ClientForm key={clientId} id={clientId} />;
}
