import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { codeInputMachine, confirmMachine } from '../../machines/auth/support.machines';
import {
  CODE_LENGTH,
  CREDENTIAL_NAME_MAX_LENGTH,
  CREDENTIAL_NAME_MIN_LENGTH,
  passwordHintBounds,
} from '../../machines/auth/validation';
import type { FlowInput } from '../../machines/auth/types';
import { useFlow } from './flowContext';
import { fieldMessageKey, messageKey } from './messages';

/** One screen of the widget: heading, the flow-level message, content. */
export function Screen({
  title,
  children,
  className,
}: {
  title: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      className={className ? `auth-screen ${className}` : 'auth-screen'}
      aria-labelledby="auth-screen-title"
    >
      <h2 id="auth-screen-title">{title}</h2>
      <ErrorBanner />
      {children}
    </section>
  );
}

/** The flow-level message (never form_data_invalid_error: that one is shown at the fields). */
export function ErrorBanner() {
  const { t } = useTranslation('auth');
  const { context } = useFlow();
  const error = context.error;
  if (!error || error.code === 'form_data_invalid_error') return null;
  return (
    <div className="auth-error" role="alert">
      <p>{t(messageKey(error.code))}</p>
      {error.description ? <p className="auth-error-description">{error.description}</p> : null}
    </div>
  );
}

/** A button that runs an action without inputs; shown only when the server offers it. */
export function ActionButton({
  action,
  children,
  primary,
  link,
  inputs,
  disabled,
}: {
  action: string;
  children: ReactNode;
  primary?: boolean;
  link?: boolean;
  inputs?: Record<string, unknown>;
  disabled?: boolean;
}) {
  const flow = useFlow();
  if (!flow.offered(action)) return null;
  const className = link ? 'button-link' : primary ? 'button button-primary' : 'button';
  return (
    <button
      type="button"
      className={className}
      disabled={flow.busy || disabled}
      onClick={() => flow.run(action, inputs)}
    >
      {children}
    </button>
  );
}

/** A secondary action of a screen: the action to run and the link's text. */
export interface SecondaryLink {
  action: string;
  label: ReactNode;
  disabled?: boolean;
}

/** The row of link actions under a screen's main part; each is shown only when offered. */
export function SecondaryLinks({ links }: { links: readonly SecondaryLink[] }) {
  return (
    <div className="auth-secondary">
      {links.map(({ action, label, disabled }) => (
        <ActionButton key={action} action={action} link disabled={disabled}>
          {label}
        </ActionButton>
      ))}
    </div>
  );
}

/** Back and Skip, when offered. */
export function BackAndSkip() {
  const { t } = useTranslation('auth');
  return (
    <SecondaryLinks
      links={[
        { action: 'skip', label: t('skip') },
        { action: 'back', label: t('back') },
      ]}
    />
  );
}

/** Reads a form's text fields (and checked checkboxes as booleans). */
export function formValues(form: HTMLFormElement): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement) || !element.name) continue;
    values[element.name] = element.type === 'checkbox' ? element.checked : element.value;
  }
  return values;
}

/** A form that runs `action` with its fields when submitted; German messages, no browser bubbles. */
export function ActionForm({
  action,
  submitLabel,
  children,
  disabled,
  extra,
}: {
  action: string;
  submitLabel: string;
  children: ReactNode;
  disabled?: boolean;
  /** Inputs that are not fields of the form (ids of the item the form is about). */
  extra?: Record<string, unknown>;
}) {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  if (!flow.offered(action)) return null;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    flow.run(action, { ...formValues(event.currentTarget), ...extra });
  };
  return (
    <form className="auth-form" noValidate onSubmit={onSubmit} aria-busy={flow.busy}>
      {children}
      <button type="submit" className="button button-primary" disabled={flow.busy || disabled}>
        {flow.busy ? t('busy') : submitLabel}
      </button>
    </form>
  );
}

const INPUT_TYPES: Record<string, string> = {
  email: 'email',
  password: 'password',
  number: 'number',
};

/**
 * A text field for a server-supplied input: its required, minimum and maximum lengths, the
 * echoed value, and the field's error (the widget's check or the server's input error).
 */
export function Field({
  action,
  name,
  label,
  autoComplete,
  hint,
  type,
  defaultValue,
  optional,
}: {
  action: string;
  name: string;
  label: string;
  autoComplete?: string;
  hint?: string;
  type?: string;
  defaultValue?: string;
  optional?: boolean;
}) {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const id = useId();
  const input: FlowInput | undefined = flow.input(action, name);
  if (!input || input.hidden) return null;
  const error = flow.fieldError(action, name);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const echoed = typeof input.value === 'string' ? input.value : undefined;
  const required = input.required === true && !optional;
  return (
    <div className="auth-field">
      <label htmlFor={id}>
        {label}
        {required ? null : <span className="auth-optional"> ({t('fields.optional')})</span>}
      </label>
      <input
        id={id}
        name={name}
        type={type ?? INPUT_TYPES[input.type] ?? 'text'}
        required={required}
        {...(input.min_length !== undefined ? { minLength: input.min_length } : {})}
        {...(input.max_length !== undefined ? { maxLength: input.max_length } : {})}
        {...(autoComplete ? { autoComplete } : {})}
        defaultValue={defaultValue ?? echoed ?? ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hint ? hintId : '', error ? errorId : ''].join(' ').trim() || undefined}
      />
      {hint ? (
        <p id={hintId} className="auth-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="auth-field-error" role="alert">
          {t(fieldMessageKey(action, name, error), {
            min: CREDENTIAL_NAME_MIN_LENGTH,
            max: CREDENTIAL_NAME_MAX_LENGTH,
          })}
        </p>
      ) : null}
    </div>
  );
}

/** "Muss zwischen {min} und {max} Zeichen lang sein." (72 in flows, the server's in the profile). */
export function usePasswordHint(action: string, name: string, where: 'flow' | 'profile') {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  return t('fields.passwordHint', passwordHintBounds(flow.input(action, name), where));
}

/**
 * Six boxes for a passcode or app code (the specification's validation rules): submitted by itself
 * when all six are filled; pasting fills from the box that has the focus; `resetKey` changes on
 * passcode_invalid and clears it (the parent remounts it with that key).
 */
export function CodeInput({
  onComplete,
  label,
  error,
  disabled,
}: {
  onComplete: (code: string) => void;
  label: string;
  error?: string | undefined;
  disabled?: boolean;
}) {
  const { t } = useTranslation('auth');
  const actor = useActorRef(codeInputMachine);
  const digits = useSelector(actor, (s) => s.context.digits);
  const focus = useSelector(actor, (s) => s.context.focus);
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const completeRef = useRef(onComplete);
  const errorId = useId();

  useEffect(() => {
    completeRef.current = onComplete;
  }, [onComplete]);
  useEffect(() => {
    const subscription = actor.on('code.complete', (event) => completeRef.current(event.code));
    return () => subscription.unsubscribe();
  }, [actor]);
  useEffect(() => {
    if (
      document.activeElement &&
      boxes.current.includes(document.activeElement as HTMLInputElement)
    ) {
      boxes.current[focus]?.focus();
    }
  }, [focus]);

  return (
    <fieldset className="auth-code" aria-describedby={error ? errorId : undefined}>
      <legend>{label}</legend>
      <div className="auth-code-boxes">
        {digits.map((digit, index) => (
          <input
            key={index}
            ref={(element) => {
              boxes.current[index] = element;
            }}
            value={digit}
            inputMode="numeric"
            autoComplete={index === 0 ? 'one-time-code' : 'off'}
            aria-label={t('fields.codeDigit', { position: index + 1, count: CODE_LENGTH })}
            aria-invalid={error ? true : undefined}
            disabled={disabled}
            autoFocus={index === 0}
            onFocus={() => actor.send({ type: 'digit.focus', index })}
            onChange={(event) =>
              actor.send({
                type: 'digit.input',
                index,
                value: event.target.value.slice(-CODE_LENGTH),
              })
            }
            onPaste={(event) => {
              event.preventDefault();
              actor.send({ type: 'code.paste', index, text: event.clipboardData.getData('text') });
            }}
            onKeyDown={(event) => {
              if (event.key === 'Backspace') {
                event.preventDefault();
                actor.send({ type: 'digit.delete', index });
              }
            }}
          />
        ))}
      </div>
      {error ? (
        <p id={errorId} className="auth-field-error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * A dangerous link with a yes/no confirmation; the question closes 1 s after the pointer
 * leaves it (the specification's screens and routes).
 */
export function DangerAction({
  label,
  onConfirm,
  disabled,
}: {
  label: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('auth');
  const actor = useActorRef(confirmMachine);
  const open = useSelector(actor, (s) => s.hasTag('open'));
  const confirmRef = useRef(onConfirm);
  useEffect(() => {
    confirmRef.current = onConfirm;
  }, [onConfirm]);
  useEffect(() => {
    const subscription = actor.on('confirmed', () => confirmRef.current());
    return () => subscription.unsubscribe();
  }, [actor]);
  return (
    <span
      className="auth-danger"
      onPointerLeave={() => actor.send({ type: 'pointer.leave' })}
      onPointerEnter={() => actor.send({ type: 'pointer.enter' })}
    >
      {open ? (
        <span className="auth-confirm" role="group" aria-label={label}>
          <span>{t('confirm.question')}</span>{' '}
          <button
            type="button"
            className="button-link"
            onClick={() => actor.send({ type: 'confirm.yes' })}
          >
            {t('confirm.yes')}
          </button>{' '}
          <button
            type="button"
            className="button-link"
            onClick={() => actor.send({ type: 'confirm.no' })}
          >
            {t('confirm.no')}
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="button-link auth-danger-link"
          disabled={disabled}
          onClick={() => actor.send({ type: 'confirm.open' })}
        >
          {label}
        </button>
      )}
    </span>
  );
}
