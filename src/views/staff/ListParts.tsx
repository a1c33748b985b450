import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { tKey } from '../../i18n/keys';
import { type listMachine, pageCount } from '../../machines/list.machine';
import { formatNumber } from './format';
import './staff.css';

export type ListActor = ActorRefFrom<typeof listMachine>;

/** German messages for the error codes the staff screens meet. */
const ERRORS: Record<string, string> = {
  network_error: tKey('staff:errors.network'),
  not_found: tKey('staff:errors.notFound'),
  forbidden: tKey('staff:errors.forbidden'),
  forbidden_scope: tKey('staff:errors.forbidden'),
  forbidden_reassign: tKey('staff:errors.forbidden'),
  validation_failed: tKey('staff:errors.validation'),
  rate_limited: tKey('staff:errors.rateLimited'),
  email_taken: tKey('staff:errors.emailTaken'),
  slot_taken: tKey('staff:errors.slotTaken'),
  appointment_cancelled: tKey('staff:errors.appointmentCancelled'),
  appointment_ended: tKey('staff:errors.appointmentEnded'),
  appointment_not_started: tKey('staff:errors.appointmentNotStarted'),
  sessions_already_closed: tKey('staff:errors.sessionsAlreadyClosed'),
  sessions_already_open: tKey('staff:errors.sessionsAlreadyOpen'),
  contract_already_signed: tKey('staff:errors.contractAlreadySigned'),
  no_contact: tKey('staff:errors.noContact'),
  not_implemented: tKey('staff:errors.notImplemented'),
  meeting_base_url_not_allowed: tKey('staff:errors.generic'),
  role_not_assignable: tKey('staff:errors.roleNotAssignable'),
  cannot_change_own_account: tKey('staff:errors.cannotChangeOwnAccount'),
  coach_already_linked: tKey('staff:errors.coachAlreadyLinked'),
  coach_has_future_appointments: tKey('staff:errors.coachHasFutureAppointments'),
  outside_availability: tKey('staff:errors.outsideAvailability'),
  public_holiday: tKey('staff:errors.publicHoliday'),
  insurer_name_taken: tKey('catalog:errors.insurerNameTaken'),
  campaign_code_taken: tKey('catalog:errors.campaignCodeTaken'),
  client_has_invoiced_items: tKey('catalog:errors.clientHasInvoicedItems'),
};

export const errorKey = (error: { code: string } | null | undefined): string =>
  ERRORS[error?.code ?? ''] ?? tKey('staff:errors.generic');

/** Field error codes (zod and the API's `errors[].code`) as German messages. */
const FIELD_ERRORS: Record<string, string> = {
  value_missing: tKey('staff:fieldErrors.required'),
  value_too_short: tKey('staff:fieldErrors.required'),
  value_too_long: tKey('staff:fieldErrors.tooLong'),
  value_invalid_format: tKey('staff:fieldErrors.format'),
  value_too_small: tKey('staff:fieldErrors.tooSmall'),
  value_too_large: tKey('staff:fieldErrors.tooLarge'),
  invalid_email: tKey('staff:fieldErrors.email'),
  invalid_phone: tKey('staff:fieldErrors.phone'),
  invalid_year: tKey('staff:fieldErrors.year'),
  invalid_postal_code: tKey('staff:fieldErrors.postalCode'),
  invalid_country: tKey('staff:fieldErrors.country'),
  invalid_date: tKey('staff:fieldErrors.date'),
  implausible_date: tKey('staff:fieldErrors.pastDate'),
  invalid_insurer_code: tKey('staff:fieldErrors.insurerCode'),
  end_before_start: tKey('staff:fieldErrors.endBeforeStart'),
  email_taken: tKey('staff:errors.emailTaken'),
  unknown_coach: tKey('staff:fieldErrors.unknownCoach'),
  start_in_past: tKey('staff:fieldErrors.startInPast'),
  invalid_ik_number: tKey('catalog:fieldErrors.ikNumber'),
  invalid_postal_code_de: tKey('catalog:fieldErrors.postalCodeDe'),
  invalid_campaign_code: tKey('catalog:fieldErrors.campaignCode'),
  // The practice settings.
  invalid_iban: tKey('admin:practice.fieldErrors.iban'),
  invalid_vat_id: tKey('admin:practice.fieldErrors.vatId'),
  tax_number_or_vat_id: tKey('admin:practice.fieldErrors.taxNumberOrVatId'),
};

export const fieldErrorKey = (code: string): string =>
  FIELD_ERRORS[code] ?? tKey('staff:fieldErrors.invalid');

/**
 * The frame of every staff list: progress while loading (the rows stay, dimmed), the empty
 * state, the error with retry, the count and the pager. The screen renders its rows as children.
 */
export function ListFrame({
  actorRef,
  label,
  emptyText,
  children,
}: {
  actorRef: ListActor;
  /** Accessible name of the results region. */
  label: string;
  emptyText: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('staff');
  const busy = useSelector(actorRef, (s) => s.hasTag('busy'));
  const status = useSelector(actorRef, (s) =>
    s.hasTag('error')
      ? 'failed'
      : s.hasTag('empty')
        ? 'empty'
        : s.hasTag('loaded')
          ? 'loaded'
          : 'loading',
  );
  const error = useSelector(actorRef, (s) => s.context.error);
  const hasRows = useSelector(actorRef, (s) => s.context.rows.length > 0);
  const outOfRange = useSelector(
    actorRef,
    (s) => s.hasTag('empty') && s.context.itemCount > 0 && s.context.query.page > 1,
  );

  return (
    <section className="staff-list" aria-label={label} aria-busy={busy}>
      {busy ? (
        <p className="list-progress" role="status">
          <span className="spinner" aria-hidden="true" />
          {t('list.loading')}
        </p>
      ) : null}
      {status === 'failed' ? (
        <div className="notice notice-error" role="alert">
          <p>{t(errorKey(error))}</p>
          <button
            type="button"
            className="button"
            onClick={() => actorRef.send({ type: 'list.retry' })}
          >
            {t('list.retry')}
          </button>
        </div>
      ) : null}
      {status === 'empty' ? (
        <div className="list-empty" role="status">
          <p>{outOfRange ? t('list.pastLastPage') : emptyText}</p>
          {outOfRange ? (
            <button
              type="button"
              className="button"
              onClick={() => actorRef.send({ type: 'list.page', page: 1 })}
            >
              {t('list.firstPage')}
            </button>
          ) : null}
        </div>
      ) : null}
      {hasRows && status !== 'empty' && status !== 'failed' ? (
        <div className={busy ? 'list-rows is-stale' : 'list-rows'}>{children}</div>
      ) : null}
      <Pager actorRef={actorRef} />
    </section>
  );
}

/** Count and page navigation. */
export function Pager({ actorRef }: { actorRef: ListActor }) {
  const { t } = useTranslation('staff');
  const { page, pages, count, capped, shown } = useSelector(
    actorRef,
    (s) => ({
      page: s.context.query.page,
      pages: pageCount(s.context),
      count: s.context.itemCount,
      capped: s.context.itemCountCapped,
      shown: s.context.shownQuery !== null && !s.hasTag('error'),
    }),
    (a, b) =>
      a.page === b.page &&
      a.pages === b.pages &&
      a.count === b.count &&
      a.capped === b.capped &&
      a.shown === b.shown,
  );
  if (!shown || count === 0) return null;
  return (
    <nav className="pager" aria-label={t('list.pagination')}>
      <p className="pager-count">
        {capped
          ? t('list.countCapped', { count: formatNumber(count) })
          : t('list.count', { count, formatted: formatNumber(count) })}
      </p>
      <button
        type="button"
        className="button"
        disabled={page <= 1}
        onClick={() => actorRef.send({ type: 'list.page', page: page - 1 })}
      >
        {t('list.previous')}
      </button>
      <span className="pager-page" aria-current="page">
        {t('list.pageOf', {
          page,
          pages: capped ? `${formatNumber(pages)}+` : formatNumber(pages),
        })}
      </span>
      <button
        type="button"
        className="button"
        disabled={page >= pages && !capped}
        onClick={() => actorRef.send({ type: 'list.page', page: page + 1 })}
      >
        {t('list.next')}
      </button>
    </nav>
  );
}

/** A labelled field with its German error below, wired for screen readers. */
export function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  children: ReactNode;
}) {
  const { t } = useTranslation('staff');
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {t(fieldErrorKey(error))}
        </p>
      ) : null}
    </div>
  );
}

/** Props that tie an input to its label, hint and error. */
export function describedBy(id: string, error?: string, hint?: string) {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': ids || undefined,
  } as const;
}
