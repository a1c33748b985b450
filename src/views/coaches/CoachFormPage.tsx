import { useActorRef } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'wouter';
import type { components } from '../../api/generated/product';
import { useAppServices } from '../../app/services';
import { loadCoachRecordActor, saveCoachActor } from '../../machines/actors/staff/coaches';
import { coachFormSchema, coachFormValues, newCoachValues } from '../../machines/coach-staff-form';
import { recordFormMachine } from '../../machines/record-form.machine';
import { CheckField, RecordForm, TextField } from '../staff/FormParts';
import '../staff/staff.css';

/** `/coaches/new` and `/coaches/{coachId}/edit`: the generic record form with the coach's fields. */
function CoachForm({ id }: { id: string | null }) {
  const { t } = useTranslation('staff');
  const { api, toasts } = useAppServices();
  const [, navigate] = useLocation();
  const actorRef = useActorRef(
    recordFormMachine.provide({
      actors: { loadRecord: loadCoachRecordActor(api, coachFormValues), saveRecord: saveCoachActor(api) },
      actions: {
        notifySaved: (_, { record, unchanged }) => {
          const coach = record as components['schemas']['Coach'] | null;
          toasts.send({
            type: 'show',
            kind: unchanged ? 'info' : 'success',
            messageKey: unchanged
              ? 'staff:toasts.unchanged'
              : id === null
                ? 'staff:toasts.coachCreated'
                : 'staff:toasts.coachSaved',
          });
          navigate(`/coaches/${coach?.id ?? id}`);
        },
      },
    }),
    { input: id === null ? { id: null, schema: coachFormSchema, values: newCoachValues() } : { id, schema: coachFormSchema } },
  );
  const title = id === null ? t('coachForm.newTitle') : t('coachForm.editTitle');
  return (
    <article className="staff-page">
      <h1>{title}</h1>
      <RecordForm
        actorRef={actorRef}
        label={title}
        submitLabel={id === null ? t('coachForm.create') : t('form.save')}
        actions={
          <Link href={id === null ? '/coaches' : `/coaches/${id}`} className="button">
            {t('form.cancel')}
          </Link>
        }
      >
        <TextField actorRef={actorRef} name="title" label={t('coachForm.title')} hint={t('coachForm.titleHint')} maxLength={50} />
        <TextField actorRef={actorRef} name="firstName" label={t('coachForm.firstName')} required maxLength={100} autoComplete="off" />
        <TextField actorRef={actorRef} name="lastName" label={t('coachForm.lastName')} required maxLength={100} autoComplete="off" />
        <TextField actorRef={actorRef} name="email" type="email" label={t('coachForm.email')} required maxLength={254} autoComplete="off" />
        <TextField actorRef={actorRef} name="telephone" type="tel" label={t('coachForm.telephone')} maxLength={40} autoComplete="off" />
        <CheckField actorRef={actorRef} name="takesInitialAppointments" label={t('coachForm.takesInitialAppointments')} />
      </RecordForm>
    </article>
  );
}

export function CoachNewPage() {
  return <CoachForm id={null} />;
}

export function CoachEditPage() {
  const { coachId } = useParams<{ coachId: string }>();
  return <CoachForm key={coachId} id={coachId} />;
}
