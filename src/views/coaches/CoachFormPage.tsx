import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import { coachFormSchema, newCoachValues } from '../../forms/coach-staff-form';
import { wireCoachForm } from '../../machines/wiring/coach-form';
import { CheckField, TextField } from '../staff/FormParts';
import { NewOrEditFormPage } from '../staff/StaffFormPage';

/** `/coaches/new` and `/coaches/{coachId}/edit`: the generic record form with the coach's fields. */
function CoachForm({ id }: { id: string | null }) {
  const { t } = useTranslation('staff');
  return (
    <NewOrEditFormPage
      id={id}
      wire={wireCoachForm}
      schema={coachFormSchema}
      newValues={newCoachValues}
      titles={{ new: t('coachForm.newTitle'), edit: t('coachForm.editTitle') }}
      createLabel={t('coachForm.create')}
      listHref="/coaches"
    >
      {(actorRef) => (
        <>
          <TextField
            actorRef={actorRef}
            name="title"
            label={t('coachForm.title')}
            hint={t('coachForm.titleHint')}
            maxLength={50}
          />
          <TextField
            actorRef={actorRef}
            name="firstName"
            label={t('coachForm.firstName')}
            required
            maxLength={100}
            autoComplete="off"
          />
          <TextField
            actorRef={actorRef}
            name="lastName"
            label={t('coachForm.lastName')}
            required
            maxLength={100}
            autoComplete="off"
          />
          <TextField
            actorRef={actorRef}
            name="email"
            type="email"
            label={t('coachForm.email')}
            required
            maxLength={254}
            autoComplete="off"
          />
          <TextField
            actorRef={actorRef}
            name="telephone"
            type="tel"
            label={t('coachForm.telephone')}
            maxLength={40}
            autoComplete="off"
          />
          <CheckField
            actorRef={actorRef}
            name="takesInitialAppointments"
            label={t('coachForm.takesInitialAppointments')}
          />
        </>
      )}
    </NewOrEditFormPage>
  );
}

export function CoachNewPage() {
  return <CoachForm id={null} />;
}

export function CoachEditPage() {
  const { coachId } = useParams<{ coachId: string }>();
  return <CoachForm key={coachId} id={coachId} />;
}
