import { lazy, Suspense, useCallback, useEffect, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import { Link, useLocation, useSearch } from 'wouter';
import { usePageServices } from '../page-services';
import { useSessionStatus } from '../session-status';
import {
  campaignFrom,
  COUNTRIES,
  HEARD_FROM,
  OTHER_INSURER,
  type SignupFormValues,
} from '../../forms/client-signup.form';
import { wireClientSignup } from '../../machines/wiring/client-signup';
import { useRouteMachine } from '../route-actor';
import { legalLinks } from '../../lib/config';
import { CLIENT_SIGN_IN } from '../../lib/client-pages';
import { ClientPage, ErrorNotice } from './parts';

// The widget's screens load when the account step starts, not with the form (bench/web.ts).
const RegistrationStep = lazy(() =>
  import('./RegistrationStep').then((m) => ({ default: m.RegistrationStep })),
);

const berlinYear = () =>
  Number(
    new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', year: 'numeric' }).format(
      new Date(),
    ),
  );

/** `/client-signup`: the sign-up form, then the account (one-time code), then on to booking. */
export default function SignupPage() {
  const { t } = useTranslation('client');
  const services = usePageServices();
  const search = useSearch();
  const [, navigate] = useLocation();
  const status = useSessionStatus();
  const [state, send] = useRouteMachine(wireClientSignup, {
    input: {
      campaign: campaignFrom(search),
      currentYear: berlinYear(),
      // Signed in without a client record: this account is the one to link.
      sessionToken:
        status.kind === 'signedIn' && !status.session.active
          ? (services.session.getSnapshot().context.token ?? null)
          : null,
    },
  });
  const done = state.hasTag('done');
  useEffect(() => {
    if (done) navigate('/client-signup/appointment-selection');
  }, [done, navigate]);
  const attach = useCallback(
    (flow: AnyActorRef) => send({ type: 'registration.attach', flow }),
    [send],
  );

  if (state.hasTag('registering')) {
    return (
      <ClientPage title={t('signup.title')}>
        <p className="client-step">{t('signup.stepAccount')}</p>
        <p role="status">{t('signup.mailSent', { email: state.context.request?.email })}</p>
        <Suspense fallback={<p role="status">{t('gate.loading')}</p>}>
          <RegistrationStep onAttach={attach} />
        </Suspense>
        <p>
          {t('signup.haveAccount')} <Link href={CLIENT_SIGN_IN}>{t('signup.toLogin')}</Link>
        </p>
        <button type="button" className="button-link" onClick={() => send({ type: 'form.edit' })}>
          {t('signup.backToForm')}
        </button>
      </ClientPage>
    );
  }
  if (state.hasTag('linking')) {
    return (
      <ClientPage title={t('signup.title')}>
        <p role="status">{t('signup.linking')}</p>
      </ClientPage>
    );
  }
  if (state.hasTag('linkError')) {
    return (
      <ClientPage title={t('signup.title')}>
        <ErrorNotice code={state.context.error?.code ?? 'unknown'} />
        <p>{t('signup.linkFailed')}</p>
        <button
          type="button"
          className="button button-primary"
          onClick={() => send({ type: 'link.retry' })}
        >
          {t('actions.retry')}
        </button>
      </ClientPage>
    );
  }
  return (
    <ClientPage title={t('signup.title')}>
      <p className="client-step">{t('signup.stepForm')}</p>
      <p>{t('signup.intro')}</p>
      <p>
        {t('signup.haveAccount')} <Link href={CLIENT_SIGN_IN}>{t('signup.toLogin')}</Link>
      </p>
      {state.hasTag('formError') && state.context.error ? (
        <ErrorNotice code={state.context.error.code} />
      ) : null}
      {state.hasTag('invalid') ? (
        <p className="notice notice-error" role="alert">
          {t('signup.fixFields')}
        </p>
      ) : null}
      <SignupForm
        values={state.context.values}
        insurers={state.context.insurers}
        errors={state.context.errors}
        busy={state.hasTag('busy')}
        onChange={(field, value) => send({ type: 'field.change', field, value })}
        onSubmit={() => send({ type: 'form.submit' })}
      />
    </ClientPage>
  );
}

interface FormProps {
  values: SignupFormValues;
  /** The catalogue (null while loading, [] when there is none): else the name is typed. */
  insurers: string[] | null;
  errors: Partial<Record<keyof SignupFormValues, string>>;
  busy: boolean;
  onChange: (field: keyof SignupFormValues, value: string | boolean) => void;
  onSubmit: () => void;
}

function SignupForm({ values, insurers, errors, busy, onChange, onSubmit }: FormProps) {
  const { t } = useTranslation('client');
  const base = useId();
  const id = (field: string) => `${base}-${field}`;
  const relative = values.bookingFor === 'relative';

  const describe = (field: keyof SignupFormValues) =>
    errors[field]
      ? { 'aria-invalid': true as const, 'aria-describedby': `${id(field)}-error` }
      : {};
  const error = (field: keyof SignupFormValues) =>
    errors[field] ? (
      <p id={`${id(field)}-error`} className="field-error">
        {t(errors[field]!)}
      </p>
    ) : null;
  const text = (
    field: keyof SignupFormValues,
    options: {
      autoComplete?: string;
      type?: string;
      inputMode?: 'numeric' | 'tel' | 'email';
      hint?: ReactNode;
      label?: string;
    } = {},
  ) => (
    <div className="field">
      <label htmlFor={id(field)}>{options.label ?? t(`fields.${field}`)}</label>
      <input
        id={id(field)}
        name={field}
        type={options.type ?? 'text'}
        value={values[field] as string}
        autoComplete={options.autoComplete}
        inputMode={options.inputMode}
        disabled={busy}
        onChange={(e) => onChange(field, e.target.value)}
        {...describe(field)}
      />
      {options.hint ? <p className="field-hint">{options.hint}</p> : null}
      {error(field)}
    </div>
  );
  /** A choice among `choices` (labelled by `label`), with an empty "none" first when given. */
  const select = <C extends string>(
    field: 'country' | 'howDidYouHearAboutUs' | 'insurerChoice',
    choices: readonly C[],
    label: (choice: C) => string,
    none?: string,
    loading = false,
  ) => (
    <div className="field">
      <label htmlFor={id(field)}>{t(`fields.${field}`)}</label>
      <select
        id={id(field)}
        name={field}
        value={values[field]}
        disabled={busy || loading}
        aria-busy={loading || undefined}
        onChange={(e) => onChange(field, e.target.value)}
        {...describe(field)}
      >
        {none === undefined ? null : <option value="">{none}</option>}
        {choices.map((c) => (
          <option key={c} value={c}>
            {label(c)}
          </option>
        ))}
      </select>
      {error(field)}
    </div>
  );
  const check = (
    field: 'wantsToProvideRecordingsForResearch' | 'notifyViaSms' | 'privacyConsent',
  ) => (
    <div className="client-check">
      <input
        id={id(field)}
        name={field}
        type="checkbox"
        checked={values[field]}
        disabled={busy}
        onChange={(e) => onChange(field, e.target.checked)}
        {...describe(field)}
      />
      <label htmlFor={id(field)}>{t(`fields.${field}`)}</label>
      {error(field)}
    </div>
  );

  return (
    <form
      className="client-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <fieldset>
        <legend>{t('signup.bookingForLegend')}</legend>
        {(['self', 'relative'] as const).map((value) => (
          <div className="client-check" key={value}>
            <input
              id={id(`bookingFor-${value}`)}
              type="radio"
              name="bookingFor"
              value={value}
              checked={values.bookingFor === value}
              disabled={busy}
              onChange={() => onChange('bookingFor', value)}
            />
            <label htmlFor={id(`bookingFor-${value}`)}>{t(`signup.bookingFor.${value}`)}</label>
          </div>
        ))}
      </fieldset>

      <fieldset>
        <legend>{t(relative ? 'signup.contactLegend' : 'signup.personLegend')}</legend>
        {text('firstName', { autoComplete: 'given-name' })}
        {text('lastName', { autoComplete: 'family-name' })}
        {text('email', { type: 'email', autoComplete: 'email', inputMode: 'email' })}
        {text('telephone', {
          type: 'tel',
          autoComplete: 'tel',
          inputMode: 'tel',
          hint: t('hints.telephone'),
        })}
        {text('additionalTelephoneNumbers', {
          type: 'tel',
          inputMode: 'tel',
          hint: t('hints.additionalTelephoneNumbers'),
        })}
      </fieldset>

      <fieldset>
        <legend>{t(relative ? 'signup.relativeLegend' : 'signup.addressLegend')}</legend>
        {relative ? text('relativeFirstName') : null}
        {relative ? text('relativeLastName') : null}
        {text('yearOfBirth', { inputMode: 'numeric', hint: t('hints.yearOfBirth') })}
        {text('street', { autoComplete: 'street-address' })}
        {text('postalCode', { autoComplete: 'postal-code', inputMode: 'numeric' })}
        {text('city', { autoComplete: 'address-level2' })}
        {select('country', COUNTRIES, (c) => t(`countries.${c}`))}
        {/* The catalogue, when the practice keeps one; the name is typed when it has none. */}
        {insurers === null || insurers.length > 0
          ? select(
              'insurerChoice',
              insurers === null ? [] : [...insurers, OTHER_INSURER],
              (c) => (c === OTHER_INSURER ? t('signup.otherInsurer') : c),
              t('signup.noInsurer'),
              insurers === null,
            )
          : null}
        {insurers?.length === 0 || values.insurerChoice === OTHER_INSURER
          ? text(
              'insurer',
              insurers?.length
                ? { label: t('fields.insurerName'), hint: t('hints.otherInsurer') }
                : { hint: t('hints.insurer') },
            )
          : null}
        {text('insurerCode', { hint: t('hints.insurerCode') })}
      </fieldset>

      <fieldset>
        <legend>{t('signup.moreLegend')}</legend>
        {select(
          'howDidYouHearAboutUs',
          HEARD_FROM,
          (h) => t(`heardFrom.${h}`),
          t('heardFrom.none'),
        )}
        {check('notifyViaSms')}
        {check('wantsToProvideRecordingsForResearch')}
        {check('privacyConsent')}
        <p className="field-hint">
          <a href={legalLinks().privacy} target="_blank" rel="noopener">
            {t('signup.privacyLink')}
          </a>
        </p>
      </fieldset>

      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? t('signup.checking') : t('signup.submit')}
        </button>
      </div>
    </form>
  );
}
