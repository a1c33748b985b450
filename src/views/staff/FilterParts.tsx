import { useSelector } from '@xstate/react';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterOptions } from '../../machines/staff-filter-options.machine';
import { oneOf, text, uuid, yesNo } from '../../machines/list.machine';
import type { ListActor } from './ListParts';
import { filtersFromForm } from './useUrlList';

/**
 * The filter form of a staff list. Inputs are plain form fields named like the URL keys; the
 * form sends all of them at once with "Filter anwenden" (one request for any number of
 * changes). It is keyed by the current filters, so back/forward show what applies.
 */
export function FilterForm({ actorRef, children }: { actorRef: ListActor; children: ReactNode }) {
  const { t } = useTranslation('staff');
  const filtersKey = useSelector(actorRef, (s) => JSON.stringify(s.context.query.filters));
  // On phones the form folds away behind a "Filter" button (staff.css); wide screens always show it.
  const [open, setOpen] = useState(false);
  const formId = useId();
  return (
    <>
      <button
        type="button"
        className="button filter-toggle"
        aria-expanded={open}
        aria-controls={formId}
        onClick={() => setOpen(!open)}
      >
        {t('list.filterToggle')}
      </button>
      <form
        key={filtersKey}
        id={formId}
        data-open={open}
        className="filters"
        aria-label={t('list.filters')}
        onSubmit={(e) => {
          e.preventDefault();
          actorRef.send({ type: 'list.filter', filters: filtersFromForm(e.currentTarget) });
        }}
      >
        {children}
        <div className="form-actions">
          <button type="submit" className="button button-primary">
            {t('list.apply')}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => actorRef.send({ type: 'list.clear' })}
          >
            {t('list.clear')}
          </button>
        </div>
      </form>
    </>
  );
}

export function FilterSelect({
  name,
  label,
  value,
  options,
  anyLabel,
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: ReadonlyArray<{ value: string; label: string }>;
  /** The "no filter" choice; defaults to "Alle". */
  anyLabel?: string;
}) {
  const { t } = useTranslation('staff');
  const id = `filter-${name}`;
  const known = value === undefined || options.some((o) => o.value === value);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value ?? ''}>
        <option value="">{anyLabel ?? t('list.any')}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
        {/* A value from the URL the options do not (yet) list stays selectable. */}
        {known ? null : <option value={value}>{value}</option>}
      </select>
    </div>
  );
}

export function FilterYesNo({
  name,
  label,
  value,
}: {
  name: string;
  label: string;
  value: string | undefined;
}) {
  const { t } = useTranslation('staff');
  return (
    <FilterSelect
      name={name}
      label={label}
      value={value}
      options={[
        { value: 'true', label: t('list.yes') },
        { value: 'false', label: t('list.no') },
      ]}
    />
  );
}

export function FilterInput({
  name,
  label,
  value,
  type = 'text',
  maxLength,
  min,
  max,
}: {
  name: string;
  label: string;
  value: string | undefined;
  type?: 'text' | 'search' | 'date' | 'number' | 'tel';
  maxLength?: number;
  min?: number;
  max?: number;
}) {
  const id = `filter-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={value ?? ''}
        maxLength={maxLength}
        min={min}
        max={max}
      />
    </div>
  );
}

/**
 * A filter the form does not show (a client picked from a row, past appointments shown), with
 * the button that changes it.
 */
export function ActiveFilter({
  label,
  buttonLabel,
  onClick,
}: {
  label: string;
  buttonLabel: string;
  onClick: () => void;
}) {
  return (
    <p className="active-filter">
      {label}
      <button type="button" className="button" onClick={onClick}>
        {buttonLabel}
      </button>
    </p>
  );
}

/**
 * The filters set outside the form (the tab, an `ActiveFilter`), sent again with it so that
 * applying the form keeps them.
 */
export function KeptFilters({
  filters,
  names,
}: {
  filters: Readonly<Record<string, string | undefined>>;
  names: readonly string[];
}) {
  return (
    <>
      {names.map((name) =>
        filters[name] ? <input key={name} type="hidden" name={name} value={filters[name]} /> : null,
      )}
    </>
  );
}

/**
 * The list's tabs: each one value of the filter `name` (undefined: all), the current one
 * marked, with what the tab counts under the other filters where the list says so.
 */
export function FilterTabs({
  actorRef,
  name,
  label,
  tabs,
  current: shown,
}: {
  actorRef: ListActor;
  name: string;
  label: string;
  tabs: ReadonlyArray<{ value: string | undefined; label: string; count?: string | null }>;
  /** The tab shown, where an unset filter means one of them; default the filter's value. */
  current?: string;
}) {
  const value = useSelector(actorRef, (s) => s.context.query.filters[name]);
  const current = shown ?? value;
  return (
    <nav className="status-tabs" aria-label={label}>
      {tabs.map((tab) => (
        <button
          key={tab.value ?? 'all'}
          type="button"
          className="status-tab"
          aria-current={current === tab.value ? 'page' : undefined}
          onClick={() => actorRef.send({ type: 'list.filter', filters: { [name]: tab.value } })}
        >
          <span className="status-tab-label">{tab.label}</span>
          {tab.count ? <span className="status-tab-count">{tab.count}</span> : null}
        </button>
      ))}
    </nav>
  );
}

/** The coach filter of a manager's list. */
export function CoachFilter({
  label,
  value,
  options,
}: {
  label: string;
  value: string | undefined;
  options: FilterOptions;
}) {
  return (
    <FilterSelect
      name="coach"
      label={label}
      value={value}
      options={options.coaches.map((c) => ({ value: c.id, label: c.name }))}
    />
  );
}

/** The URL keys of `ClientFilterFields`, for the filter schemas of the lists that show them. */
export const CLIENT_FILTER_KEYS = {
  participatingInResearch: yesNo,
  selfOrRelative: oneOf(['self', 'relative']),
  campaign: text(64),
  insurer: text(100),
  coach: uuid,
};

/**
 * The client filters the appointment and client lists share: booked by, insurer, campaign,
 * and (for managers) the coach.
 */
export function ClientFilterFields({
  value,
  options,
  manager,
}: {
  value: (key: string) => string | undefined;
  options: FilterOptions;
  manager: boolean;
}) {
  const { t } = useTranslation('staff');
  return (
    <>
      <FilterSelect
        name="selfOrRelative"
        label={t('list.clientFilters.selfOrRelative')}
        value={value('selfOrRelative')}
        options={[
          { value: 'self', label: t('clientTypes.self') },
          { value: 'relative', label: t('clientTypes.relative') },
        ]}
      />
      <FilterSelect
        name="insurer"
        label={t('list.clientFilters.insurer')}
        value={value('insurer')}
        options={options.insurers.map((name) => ({ value: name, label: name }))}
      />
      <FilterSelect
        name="campaign"
        label={t('list.clientFilters.campaign')}
        value={value('campaign')}
        options={options.campaigns.map((c) => ({ value: c.code, label: c.name }))}
      />
      {manager ? (
        <CoachFilter
          label={t('list.clientFilters.coach')}
          value={value('coach')}
          options={options}
        />
      ) : null}
    </>
  );
}
