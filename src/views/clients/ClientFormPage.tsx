import { useActorRef } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'wouter';
import type { components } from '../../api/generated/product';
import { useAppServices } from '../../app/services';
import { loadClientRecordActor, saveClientActor } from '../../machines/actors/staff/clients';
import { clientFormSchema, clientFormValues, newClientValues } from '../../machines/client-staff-form';
import { recordFormMachine } from '../../machines/record-form.machine';
import { RecordForm } from '../staff/FormParts';
import { useFilterOptions, useStaffSession } from '../staff/useUrlList';
import { ClientFormFields } from './ClientFormFields';
import '../staff/staff.css';

/** `/clients/new` and `/clients/{clientId}/edit`. */
function ClientForm({ id }: { id: string | null }) {
  const { t } = useTranslation('staff');
  const { api, toasts } = useAppServices();
  const { manager } = useStaffSession();
  const options = useFilterOptions(manager);
  const [, navigate] = useLocation();
  const actorRef = useActorRef(
    recordFormMachine.provide({
      actors: {
        loadRecord: loadClientRecordActor(api, clientFormValues),
        saveRecord: saveClientActor(api),
      },
      actions: {
        notifySaved: (_, { record, unchanged }) => {
          const client = record as components['schemas']['Client'] | null;
          toasts.send({
            type: 'show',
            kind: unchanged ? 'info' : 'success',
            messageKey: unchanged
              ? 'staff:toasts.unchanged'
              : id === null
                ? 'staff:toasts.clientCreated'
                : 'staff:toasts.clientSaved',
          });
          navigate(`/clients/${client?.id ?? id}`);
        },
      },
    }),
    { input: id === null ? { id: null, schema: clientFormSchema, values: newClientValues() } : { id, schema: clientFormSchema } },
  );
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
