import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { APPOINTMENT_TYPES, MEETING_TYPES } from '../../../shared/contract/enums';
import {
  appointmentFormSchema,
  offersNoShow,
  OUTSIDE_AVAILABILITY,
  OVERRIDE_REASON_MAX,
  PUBLIC_HOLIDAY,
} from '../../forms/appointment-staff-form';
import { APPOINTMENT_TYPE_LABELS, MEETING_TYPE_LABELS } from '../appointments-list/parts';
import { CheckField, RecordForm, SelectField, TextField } from '../staff/FormParts';
import { wireAppointmentForm } from '../../machines/wiring/appointment-form';
import { useRouteActor } from '../route-actor';
import '../staff/staff.css';

/** `/appointments/{appointmentId}/edit`: day, times (Berlin), type, meeting kind, flags. */
export default function AppointmentEditPage() {
  const { appointmentId } = useParams<{ appointmentId: string }>();
  return <AppointmentEdit key={appointmentId} id={appointmentId} />;
}

function AppointmentEdit({ id }: { id: string }) {
  const { t } = useTranslation('staff');
  const actorRef = useRouteActor((effects) => wireAppointmentForm(effects, id), {
    input: { id, schema: appointmentFormSchema },
  });
  // Offered once the server refused a move outside the coach's availability or onto a holiday.
  const offerOverride = useSelector(
    actorRef,
    (s) =>
      s.context.lastConflict === OUTSIDE_AVAILABILITY ||
      s.context.lastConflict === PUBLIC_HOLIDAY ||
      s.context.values.overrideAvailability === true,
  );
  const holiday = useSelector(actorRef, (s) => s.context.lastConflict === PUBLIC_HOLIDAY);
  // A future appointment has no "nicht erschienen" (the server refuses it before the start).
  const [nowMs] = useState(Date.now);
  const noShowOffered = useSelector(actorRef, (s) => offersNoShow(s.context.values, nowMs));
  return (
    <article className="staff-page">
      <h1>{t('appointmentForm.title')}</h1>
      <p className="lead">{t('appointmentForm.zone')}</p>
      <RecordForm
        actorRef={actorRef}
        label={t('appointmentForm.title')}
        submitLabel={t('form.save')}
        actions={
          <Link href={`/appointments/${id}`} className="button">
            {t('form.cancel')}
          </Link>
        }
      >
        <fieldset>
          <legend>{t('appointmentForm.time')}</legend>
          <TextField
            actorRef={actorRef}
            name="date"
            type="date"
            label={t('appointmentForm.date')}
            required
          />
          <TextField
            actorRef={actorRef}
            name="startTime"
            label={t('appointmentForm.startTime')}
            hint={t('appointmentForm.timeHint')}
            required
          />
          <TextField
            actorRef={actorRef}
            name="endTime"
            label={t('appointmentForm.endTime')}
            hint={t('appointmentForm.timeHint')}
            required
          />
        </fieldset>
        <fieldset>
          <legend>{t('appointmentForm.kind')}</legend>
          <SelectField
            actorRef={actorRef}
            name="appointmentType"
            label={t('appointment.type')}
            options={APPOINTMENT_TYPES.map((v) => ({
              value: v,
              label: t(APPOINTMENT_TYPE_LABELS[v]),
            }))}
          />
          <SelectField
            actorRef={actorRef}
            name="meetingType"
            label={t('appointment.meetingType')}
            options={MEETING_TYPES.map((v) => ({ value: v, label: t(MEETING_TYPE_LABELS[v]) }))}
          />
          <TextField
            actorRef={actorRef}
            name="externalMeetingUrl"
            label={t('appointmentForm.externalMeetingUrl')}
            hint={t('appointmentForm.externalMeetingUrlHint')}
          />
          <CheckField
            actorRef={actorRef}
            name="isProvisional"
            label={t('appointmentForm.isProvisional')}
          />
          {noShowOffered && (
            <CheckField actorRef={actorRef} name="noShow" label={t('appointmentForm.noShow')} />
          )}
        </fieldset>
        {offerOverride ? (
          <fieldset>
            <legend>
              {holiday ? t('appointmentForm.overrideHoliday') : t('appointmentForm.override')}
            </legend>
            <CheckField
              actorRef={actorRef}
              name="overrideAvailability"
              label={
                holiday
                  ? t('appointmentForm.overrideHolidayCheck')
                  : t('appointmentForm.overrideAvailability')
              }
            />
            <TextField
              actorRef={actorRef}
              name="overrideReason"
              type="textarea"
              label={t('appointmentForm.overrideReason')}
              hint={
                holiday
                  ? t('appointmentForm.overrideHolidayHint')
                  : t('appointmentForm.overrideHint')
              }
              maxLength={OVERRIDE_REASON_MAX}
            />
          </fieldset>
        ) : null}
      </RecordForm>
    </article>
  );
}
