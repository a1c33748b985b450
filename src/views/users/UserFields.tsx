import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { FilterOptions } from '../../machines/staff-filter-options.machine';
import { needsCoachRecord, ROLES } from '../../forms/user-staff-form';
import { coachOptions, SelectField, type FormActor } from '../staff/FormParts';

/**
 * Role and coach record of a user form. Every role is offered; the server refuses the ones
 * above the caller's own (403 role_not_assignable), which the form shows in German.
 */
export function RoleAndCoachFields({
  actorRef,
  coaches,
}: {
  actorRef: FormActor;
  coaches: FilterOptions['coaches'];
}) {
  const { t } = useTranslation('staff');
  const role = useSelector(actorRef, (s) => s.context.values.role);
  const current = useSelector(actorRef, (s) => s.context.values.coachId);
  return (
    <>
      <SelectField
        actorRef={actorRef}
        name="role"
        label={t('user.role')}
        options={ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
      />
      {needsCoachRecord(role) || (typeof current === 'string' && current !== '') ? (
        <SelectField
          actorRef={actorRef}
          name="coachId"
          label={t('user.coach')}
          hint={t('user.coachHint')}
          options={coachOptions(
            coaches,
            t('user.noCoach'),
            (name) => `${name} (${t('coaches.inactive')})`,
            current,
          )}
        />
      ) : null}
    </>
  );
}
