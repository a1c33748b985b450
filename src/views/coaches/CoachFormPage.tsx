import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { coachFormSchema, newCoachValues } from '../../forms/coach-staff-form';
import { CheckField, RecordForm, TextField } from '../staff/FormParts';
import { wireCoachForm } from '../../machines/wiring/coach-form';
import { useRouteActor } from '../route-actor';
import '../staff/staff.css';

/** `/coaches/new` and `/coaches/{coachId}/edit`: the generic record form with the coach's fields. */
function CoachForm({ id }: { id: string | null }) {
  const { t } = useTranslation('staff');
  const actorRef = useRouteActor((effects) => wireCoachForm(effects, id), {
    input: id === null ? { id: null, schema: coachFormSchema, values: newCoachValues() } : { id, schema: coachFormSchema },
  });
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
