import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { type recordFormMachine } from '../../machines/record-form.machine';
import { describedBy, errorKey, Field } from './ListParts';
import { BusyButton } from '../parts/BusyButton';

export type FormActor = ActorRefFrom<typeof recordFormMachine>;

/**
 * The frame of every staff form: progress while the record loads, the load error with retry,
 * the form while editing, the conflict and failure notices, and the submit button (busy while
 * saving). The screen renders its fields as children, each with `TextField`, `CheckField` or
 * `SelectField`.
 */
export function RecordForm({
  actorRef,
  label,
  submitLabel,
  children,
  actions,
}: {
  actorRef: FormActor;
  /** Accessible name of the form. */
  label: string;
  submitLabel: string;
  children: ReactNode;
  /** Further buttons beside submit (e.g. a link back). */
  actions?: ReactNode;
}) {
  const { t } = useTranslation('staff');
  const status = useSelector(actorRef, (s) =>
    s.hasTag('loading')
      ? 'loading'
      : s.hasTag('loadError')
        ? 'loadFailed'
        : s.hasTag('saving')
          ? 'saving'
          : s.hasTag('conflict')
            ? 'conflict'
            : s.hasTag('saveError')
              ? 'failed'
              : s.hasTag('done')
                ? 'done'
                : 'editing',
  );
  const error = useSelector(actorRef, (s) => s.context.error);
  const hasFieldErrors = useSelector(
    actorRef,
    (s) => Object.keys(s.context.fieldErrors).length > 0,
  );
  const canReload = useSelector(actorRef, (s) => s.can({ type: 'form.reload' }));
  const send = actorRef.send;

  if (status === 'loading') {
    return (
      <p className="list-progress" role="status">
        <span className="spinner" aria-hidden="true" />
        {t('form.loading')}
      </p>
    );
  }
  if (status === 'loadFailed') {
    return (
      <div className="notice notice-error" role="alert">
        <p>{t(errorKey(error))}</p>
        {error?.code !== 'not_found' ? (
          <button type="button" className="button" onClick={() => send({ type: 'form.retry' })}>
            {t('list.retry')}
          </button>
        ) : null}
      </div>
    );
  }
  const busy = status === 'saving';
  const locked = busy || status === 'conflict' || status === 'failed' || status === 'done';
  return (
    <form
      className="staff-form"
      aria-label={label}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        send({ type: 'form.submit' });
      }}
    >
      {hasFieldErrors ? (
        <p className="notice notice-error" role="alert">
          {t('form.checkFields')}
        </p>
      ) : null}
      <fieldset disabled={locked} className="form-fields">
        {children}
      </fieldset>
      {status === 'conflict' || status === 'failed' ? (
        <div className="notice notice-error" role="alert">
          <p>{t(errorKey(error))}</p>
          <div className="form-actions">
            {status === 'failed' ? (
              <button
                type="button"
                className="button button-primary"
                onClick={() => send({ type: 'form.retry' })}
              >
                {t('list.retry')}
              </button>
            ) : null}
            {canReload ? (
              <button
                type="button"
                className="button"
                onClick={() => send({ type: 'form.reload' })}
              >
                {t('form.reload')}
              </button>
            ) : null}
            <button type="button" className="button" onClick={() => send({ type: 'form.edit' })}>
              {t('form.edit')}
            </button>
          </div>
        </div>
      ) : (
        <div className="form-actions">
          <BusyButton
            type="submit"
            busy={busy}
            disabled={locked}
            label={submitLabel}
            busyLabel={t('form.saving')}
          />
          {actions}
        </div>
      )}
    </form>
  );
}

function useField(actorRef: FormActor, name: string) {
  const value = useSelector(actorRef, (s) => s.context.values[name]);
  const error = useSelector(actorRef, (s) => s.context.fieldErrors[name]);
  return { value, error };
}

/** A text input of the form (text, e-mail, tel, number, date, datetime-local, textarea). */
export function TextField({
  actorRef,
  name,
  label,
  type = 'text',
  hint,
  required,
  maxLength,
  autoComplete,
}: {
  actorRef: FormActor;
  name: string;
  label: string;
  type?: 'text' | 'email' | 'tel' | 'number' | 'date' | 'datetime-local' | 'textarea';
  hint?: string;
  required?: boolean;
  maxLength?: number;
  autoComplete?: string;
}) {
  const { value, error } = useField(actorRef, name);
  const id = `field-${name}`;
  const props = {
    ...describedBy(id, error, hint),
    name,
    value: typeof value === 'string' ? value : '',
    required,
    maxLength,
    autoComplete,
    onChange: (e: { target: { value: string } }) =>
      actorRef.send({ type: 'form.change', field: name, value: e.target.value }),
  };
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      {type === 'textarea' ? <textarea {...props} rows={4} /> : <input {...props} type={type} />}
    </Field>
  );
}

/** A checkbox of the form. */
export function CheckField({
  actorRef,
  name,
  label,
}: {
  actorRef: FormActor;
  name: string;
  label: string;
}) {
  const { value, error } = useField(actorRef, name);
  const id = `field-${name}`;
  return (
    <div className="field check-field">
      <input
        {...describedBy(id, error)}
        type="checkbox"
        name={name}
        checked={value === true}
        onChange={(e) =>
          actorRef.send({ type: 'form.change', field: name, value: e.target.checked })
        }
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** A select of the form; `options` are value and German label. */
/**
 * A select's coaches: "none" first, then every coach by name (an inactive one marked by
 * `inactiveLabel`), and a `kept` id the options do not hold (not loaded yet) as itself.
 */
export function coachOptions(
  coaches: ReadonlyArray<{ id: string; name: string; active: boolean }>,
  none: string,
  inactiveLabel: (name: string) => string,
  kept?: unknown,
): Array<{ value: string; label: string }> {
  const keep = typeof kept === 'string' && kept !== '' && !coaches.some((c) => c.id === kept);
  return [
    { value: '', label: none },
    ...coaches.map((c) => ({ value: c.id, label: c.active ? c.name : inactiveLabel(c.name) })),
    ...(keep ? [{ value: kept, label: kept }] : []),
  ];
}

export function SelectField({
  actorRef,
  name,
  label,
  options,
  hint,
}: {
  actorRef: FormActor;
  name: string;
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  hint?: string;
}) {
  const { value, error } = useField(actorRef, name);
  const id = `field-${name}`;
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <select
        {...describedBy(id, error, hint)}
        name={name}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => actorRef.send({ type: 'form.change', field: name, value: e.target.value })}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
