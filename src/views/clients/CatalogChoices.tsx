import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { FilterOptions } from '../../machines/staff-filter-options.machine';
import { coachOptions, SelectField, type FormActor } from '../staff/FormParts';

/**
 * A field picked from a maintained list (insurer by name, campaign by code): the active entries
 * (with `offerInactive` the inactive ones too, marked), plus the current value when it is
 * inactive or not in the list (kept, so editing other fields never drops it).
 */
function CatalogSelect({
  actorRef,
  name,
  label,
  noneLabel,
  hint,
  entries,
  inactive,
  offerInactive = false,
}: {
  actorRef: FormActor;
  name: string;
  label: string;
  noneLabel: string;
  hint?: string;
  entries: ReadonlyArray<{ value: string; label: string }>;
  inactive: readonly string[];
  offerInactive?: boolean;
}) {
  const { t } = useTranslation('catalog');
  const current = useSelector(actorRef, (s) => s.context.values[name]);
  const offered = offerInactive
    ? entries.map((e) =>
        inactive.includes(e.value)
          ? { ...e, label: t('clientForm.inactiveEntry', { value: e.label }) }
          : e,
      )
    : entries.filter((e) => !inactive.includes(e.value));
  const extra =
    typeof current === 'string' && current !== '' && !offered.some((e) => e.value === current)
      ? [
          {
            value: current,
            label: inactive.includes(current)
              ? t('clientForm.inactiveEntry', {
                  value: entries.find((e) => e.value === current)?.label ?? current,
                })
              : t('clientForm.notInList', { value: current }),
          },
        ]
      : [];
  return (
    <SelectField
      actorRef={actorRef}
      name={name}
      label={label}
      hint={hint}
      options={[{ value: '', label: noneLabel }, ...extra, ...offered]}
    />
  );
}

/**
 * The insurer and campaign selects of the client form and of a billing rule's criteria (there
 * "none" means "any", and inactive entries stay choosable: clients may still carry them).
 */
export function CatalogChoices({
  actorRef,
  options,
  insurerLabel,
  campaignLabel,
  none,
  hints,
  offerInactive = false,
}: {
  actorRef: FormActor;
  options: Pick<FilterOptions, 'insurers' | 'campaigns' | 'inactiveInsurers' | 'inactiveCampaigns'>;
  insurerLabel: string;
  campaignLabel: string;
  /** The empty choice's labels; default "Keine Angabe" / "Keine Kampagne". */
  none?: { insurer: string; campaign: string };
  hints?: { insurer?: string; campaign?: string };
  offerInactive?: boolean;
}) {
  const { t } = useTranslation('catalog');
  return (
    <>
      <CatalogSelect
        actorRef={actorRef}
        name="insurer"
        label={insurerLabel}
        noneLabel={none?.insurer ?? t('clientForm.chooseInsurer')}
        hint={hints ? hints.insurer : t('clientForm.insurerHint')}
        entries={options.insurers.map((n) => ({ value: n, label: n }))}
        inactive={options.inactiveInsurers ?? []}
        offerInactive={offerInactive}
      />
      <CatalogSelect
        actorRef={actorRef}
        name="campaign"
        label={campaignLabel}
        noneLabel={none?.campaign ?? t('clientForm.chooseCampaign')}
        hint={hints?.campaign}
        entries={options.campaigns.map((c) => ({ value: c.code, label: c.name }))}
        inactive={options.inactiveCampaigns ?? []}
        offerInactive={offerInactive}
      />
    </>
  );
}

/** "Bestandsklient:in von Coach …": every coach (a former client of a coach who has left counts too). */
export function ExistingClientOfCoach({
  actorRef,
  coaches,
}: {
  actorRef: FormActor;
  coaches: FilterOptions['coaches'];
}) {
  const { t } = useTranslation('catalog');
  return (
    <SelectField
      actorRef={actorRef}
      name="existingClientOfCoachId"
      label={t('clientForm.existingClientOfCoach')}
      hint={t('clientForm.existingClientOfCoachHint')}
      options={coachOptions(coaches, t('clientForm.existingClientOfCoachNone'), (value) =>
        t('clientForm.inactiveEntry', { value }),
      )}
    />
  );
}
