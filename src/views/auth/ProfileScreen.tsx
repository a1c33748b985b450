import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { AuthFlowActor, useFlow } from './flowContext';
import {
  ActionButton,
  ActionForm,
  DangerAction,
  Field,
  Screen,
  formValues,
  usePasswordHint,
} from './parts';
import { credentialDisplayName } from '../../machines/auth/validation';
import type { ProfileSession, WebAuthnCredential } from '../../machines/auth/types';
import { fieldMessageKey } from './messages';
import { deviceName } from '../../lib/device-name';
import { tKey } from '../../i18n/keys';

const dateFormat = new Intl.DateTimeFormat('de-DE', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Europe/Berlin',
});
const formatDate = (iso: string | undefined) => (iso ? dateFormat.format(new Date(iso)) : '');

/** Ids the server allows for an action's hidden id input (`allowed_values`); null: any. */
function useAllowed(action: string, input: string): Set<string> | null {
  const flow = useFlow();
  const values = flow.input(action, input)?.allowed_values;
  return values ? new Set(values.map((v) => v.value)) : null;
}

const allows = (allowed: Set<string> | null, id: string) => allowed === null || allowed.has(id);

function Saved() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  return (
    <p className="auth-saved" role="status" aria-live="polite">
      {flow.succeeded ? t('profile.saved') : ''}
    </p>
  );
}

function UsernameSection() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const username = flow.payload.user?.username?.username;
  const action = flow.offered('username_update') ? 'username_update' : 'username_create';
  if (
    !flow.offered('username_create') &&
    !flow.offered('username_update') &&
    !flow.offered('username_delete')
  ) {
    return null;
  }
  return (
    <section aria-labelledby="profile-username">
      <h3 id="profile-username">{t('profile.username.title')}</h3>
      {username ? <p>{username}</p> : <p>{t('profile.username.none')}</p>}
      <ActionForm action={action} submitLabel={t('save')}>
        <Field
          action={action}
          name="username"
          label={t('fields.username')}
          hint={t('fields.usernameHint')}
          defaultValue={username ?? ''}
        />
      </ActionForm>
      {flow.offered('username_delete') ? (
        <DangerAction
          label={t('profile.username.delete')}
          disabled={flow.busy}
          onConfirm={() => flow.run('username_delete')}
        />
      ) : null}
    </section>
  );
}

/** Display names of the usual providers, for answers without the configured name. */
const PROVIDER_NAMES: Record<string, string> = {
  apple: 'Apple',
  discord: 'Discord',
  facebook: 'Facebook',
  github: 'GitHub',
  gitlab: 'GitLab',
  google: 'Google',
  linkedin: 'LinkedIn',
  microsoft: 'Microsoft',
};
const providerName = (id: string) =>
  PROVIDER_NAMES[id.toLowerCase()] ?? id.charAt(0).toUpperCase() + id.slice(1);

function EmailsSection() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const emails = flow.payload.user?.emails ?? [];
  const deletable = useAllowed('email_delete', 'email_id');
  const verifiable = useAllowed('email_verify', 'email_id');
  const anyEmailAction = ['email_create', 'email_delete', 'email_set_primary', 'email_verify'].some(
    (a) => flow.offered(a),
  );
  if (!anyEmailAction && emails.length === 0) return null;
  return (
    <section aria-labelledby="profile-emails">
      <h3 id="profile-emails">{t('profile.emails.title')}</h3>
      <ul className="auth-list">
        {emails.map((email) => (
          <li key={email.id}>
            <span className="auth-item-name">{email.address}</span>{' '}
            <span className="auth-badge auth-badge-source">
              {email.identities?.length
                ? t('profile.emails.fromProvider', {
                    provider: email.identities
                      .map((i) => i.provider_name ?? providerName(i.provider))
                      .join(', '),
                  })
                : t('profile.emails.fromSignIn')}
            </span>{' '}
            {email.is_primary ? (
              <span className="auth-badge">{t('profile.emails.primary')}</span>
            ) : null}{' '}
            <span className="auth-badge">
              {email.is_verified ? t('profile.emails.verified') : t('profile.emails.unverified')}
            </span>{' '}
            {!email.is_primary && email.is_verified ? (
              <ActionButton action="email_set_primary" link inputs={{ email_id: email.id }}>
                {t('profile.emails.setPrimary')}
              </ActionButton>
            ) : null}{' '}
            {!email.is_verified && flow.offered('email_verify') && allows(verifiable, email.id) ? (
              <ActionButton action="email_verify" link inputs={{ email_id: email.id }}>
                {t('profile.emails.verify')}
              </ActionButton>
            ) : null}{' '}
            {flow.offered('email_delete') && allows(deletable, email.id) ? (
              <DangerAction
                label={t('profile.emails.delete')}
                disabled={flow.busy}
                onConfirm={() => flow.run('email_delete', { email_id: email.id })}
              />
            ) : null}
          </li>
        ))}
      </ul>
      {flow.offered('email_create') ? (
        <ActionForm action="email_create" submitLabel={t('profile.emails.add')}>
          <Field
            action="email_create"
            name="email"
            label={t('fields.email')}
            autoComplete="email"
          />
        </ActionForm>
      ) : emails.length > 0 ? (
        <p className="auth-hint">{t('errors.maxNumOfEmailAddressesReached')}</p>
      ) : null}
    </section>
  );
}

function PasswordSection() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const action = flow.offered('password_update') ? 'password_update' : 'password_create';
  const hint = usePasswordHint(action, 'password', 'profile');
  if (!flow.offered(action) && !flow.offered('password_delete')) return null;
  return (
    <section aria-labelledby="profile-password">
      <h3 id="profile-password">{t('profile.password.title')}</h3>
      <ActionForm
        action={action}
        submitLabel={
          action === 'password_update' ? t('profile.password.change') : t('profile.password.set')
        }
      >
        <Field
          action={action}
          name="password"
          label={t('fields.newPassword')}
          type="password"
          autoComplete="new-password"
          hint={hint}
        />
      </ActionForm>
      {flow.offered('password_delete') ? (
        <DangerAction
          label={t('profile.password.delete')}
          disabled={flow.busy}
          onConfirm={() => flow.run('password_delete')}
        />
      ) : null}
    </section>
  );
}

function CredentialList({
  credentials,
  kind,
  deleteAction,
  deleteInput,
}: {
  credentials: WebAuthnCredential[];
  kind: 'passkey' | 'security_key';
  deleteAction: string;
  deleteInput: string;
}) {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  return (
    <ul className="auth-list">
      {credentials.map((credential) => (
        <li key={credential.id}>
          <span className="auth-item-name">{credentialDisplayName(credential, kind)}</span>{' '}
          <span className="auth-hint">
            {t('profile.credential.created', { date: formatDate(credential.created_at) })}
          </span>{' '}
          {credential.last_used_at ? (
            <span className="auth-hint">
              {t('profile.credential.lastUsed', { date: formatDate(credential.last_used_at) })}
            </span>
          ) : null}{' '}
          {flow.offered('webauthn_credential_rename') ? (
            <button
              type="button"
              className="button-link"
              disabled={flow.busy}
              onClick={() => flow.send({ type: 'profile.rename', kind, id: credential.id })}
            >
              {t('profile.credential.rename')}
            </button>
          ) : null}{' '}
          {flow.offered(deleteAction) ? (
            <DangerAction
              label={t('profile.credential.delete')}
              disabled={flow.busy}
              onConfirm={() => flow.run(deleteAction, { [deleteInput]: credential.id })}
            />
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** Passkeys sign in; security keys are a second factor. Both are listed and added alike. */
const WEBAUTHN_SECTIONS = {
  passkey: {
    list: 'passkeys',
    createAction: 'webauthn_credential_create',
    deleteAction: 'webauthn_credential_delete',
    deleteInput: 'passkey_id',
    headingId: 'profile-passkeys',
    title: tKey('auth:profile.passkeys.title'),
    none: tKey('auth:profile.passkeys.none'),
    add: tKey('auth:profile.passkeys.add'),
  },
  security_key: {
    list: 'security_keys',
    createAction: 'security_key_create',
    deleteAction: 'security_key_delete',
    deleteInput: 'security_key_id',
    headingId: 'profile-security-keys',
    title: tKey('auth:profile.securityKeys.title'),
    none: tKey('auth:profile.securityKeys.none'),
    add: tKey('auth:profile.securityKeys.add'),
  },
} as const;

function WebAuthnSection({ kind }: { kind: keyof typeof WEBAUTHN_SECTIONS }) {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const section = WEBAUTHN_SECTIONS[kind];
  const credentials = flow.payload.user?.[section.list] ?? [];
  if (!flow.offered(section.createAction) && credentials.length === 0) return null;
  return (
    <section aria-labelledby={section.headingId}>
      <h3 id={section.headingId}>{t(section.title)}</h3>
      {credentials.length === 0 ? <p>{t(section.none)}</p> : null}
      <CredentialList
        credentials={credentials}
        kind={kind}
        deleteAction={section.deleteAction}
        deleteInput={section.deleteInput}
      />
      <ActionButton action={section.createAction}>{t(section.add)}</ActionButton>
    </section>
  );
}

function AuthAppSection() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const configured = flow.payload.user?.mfa_config?.auth_app_set_up === true;
  if (!flow.offered('continue_to_otp_secret_creation') && !flow.offered('otp_secret_delete'))
    return null;
  return (
    <section aria-labelledby="profile-auth-app">
      <h3 id="profile-auth-app">{t('profile.authApp.title')}</h3>
      <p>{configured ? t('profile.authApp.configured') : t('profile.authApp.notConfigured')}</p>
      <ActionButton action="continue_to_otp_secret_creation">
        {t('profile.authApp.setUp')}
      </ActionButton>
      {flow.offered('otp_secret_delete') ? (
        <DangerAction
          label={t('profile.authApp.remove')}
          disabled={flow.busy}
          onConfirm={() => flow.run('otp_secret_delete')}
        />
      ) : null}
    </section>
  );
}

/** "Chrome auf Linux"; the raw user agent only when the parser knows neither part. */
function sessionDevice(t: TFunction<'auth'>, session: ProfileSession): string {
  const raw = session.user_agent_raw ?? session.user_agent;
  const { browser, os } = deviceName(raw);
  if (browser && os) return t('profile.sessions.device', { browser, os });
  const one = browser ?? os;
  if (one) return t('profile.sessions.deviceOne', { name: one });
  return raw ?? t('profile.sessions.unknownDevice');
}

function SessionsSection() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const sessions: ProfileSession[] = flow.payload.sessions ?? [];
  const revocable = useAllowed('session_delete', 'session_id');
  if (sessions.length === 0) return null;
  return (
    <section aria-labelledby="profile-sessions">
      <h3 id="profile-sessions">{t('profile.sessions.title')}</h3>
      <ul className="auth-list">
        {sessions.map((session) => (
          <li key={session.id} data-session-id={session.id}>
            <span className="auth-item-name" title={session.user_agent_raw ?? session.user_agent}>
              {sessionDevice(t, session)}
            </span>{' '}
            {session.current ? (
              <span className="auth-badge">{t('profile.sessions.current')}</span>
            ) : null}{' '}
            {session.ip_address ? (
              <span className="auth-hint">
                {t('profile.sessions.ipAddress', { ip: session.ip_address })}
              </span>
            ) : null}{' '}
            <span className="auth-hint">
              {t('profile.sessions.created', { date: formatDate(session.created_at) })}
            </span>{' '}
            <span className="auth-hint">
              {t('profile.sessions.lastUsed', { date: formatDate(session.last_used) })}
            </span>{' '}
            {!session.current && flow.offered('session_delete') && allows(revocable, session.id) ? (
              <DangerAction
                label={t('profile.sessions.revoke')}
                disabled={flow.busy}
                onConfirm={() => flow.run('session_delete', { session_id: session.id })}
              />
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function DeleteAccountSection() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  if (!flow.offered('account_delete')) return null;
  return (
    <section aria-labelledby="profile-delete-account">
      <h3 id="profile-delete-account">{t('profile.deleteAccount.title')}</h3>
      <button
        type="button"
        className="button"
        onClick={() => flow.send({ type: 'profile.deleteAccount' })}
      >
        {t('profile.deleteAccount.open')}
      </button>
    </section>
  );
}

/** Sub-screen: rename a passkey or security key (3 to 32 characters). */
function RenameCredential() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const target = flow.context.rename;
  const user = flow.payload.user;
  const list = target?.kind === 'security_key' ? user?.security_keys : user?.passkeys;
  const credential = list?.find((c) => c.id === target?.id);
  const name = credential ? credentialDisplayName(credential, target!.kind) : '';
  return (
    <Screen title={t('profile.rename.title', { name })}>
      <ActionForm
        action="webauthn_credential_rename"
        submitLabel={t('save')}
        extra={{ passkey_id: target?.id }}
      >
        <Field
          action="webauthn_credential_rename"
          name="passkey_name"
          label={t('fields.passkeyName')}
          defaultValue={credential?.name ?? ''}
        />
      </ActionForm>
      <button
        type="button"
        className="button-link"
        onClick={() => flow.send({ type: 'profile.close' })}
      >
        {t('cancel')}
      </button>
    </Screen>
  );
}

/** Sub-screen: delete the account, only with the confirmation checkbox ticked. */
function DeleteAccount() {
  const { t } = useTranslation('auth');
  const flow = useFlow();
  const error = flow.context.clientErrors.confirm;
  return (
    <Screen title={t('profile.deleteAccount.title')}>
      <p>{t('profile.deleteAccount.text')}</p>
      <form
        className="auth-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const confirmed = formValues(event.currentTarget).confirm === true;
          flow.send({ type: 'action.run', name: 'account_delete', confirmed });
        }}
      >
        <label className="auth-checkbox">
          <input type="checkbox" name="confirm" aria-invalid={error ? true : undefined} />{' '}
          {t('profile.deleteAccount.confirm')}
        </label>
        {error ? (
          <p className="auth-field-error" role="alert">
            {t(fieldMessageKey('account_delete', 'confirm', error))}
          </p>
        ) : null}
        <button type="submit" className="button button-primary" disabled={flow.busy}>
          {t('profile.deleteAccount.submit')}
        </button>
      </form>
      <button
        type="button"
        className="button-link"
        onClick={() => flow.send({ type: 'profile.close' })}
      >
        {t('cancel')}
      </button>
    </Screen>
  );
}

/** profile_init: each section appears only when the server offers its actions. */
export default function ProfileScreen() {
  const { t } = useTranslation('auth');
  const sub = AuthFlowActor.useSelector((s) =>
    s.hasTag('renaming') ? 'renaming' : s.hasTag('deletingAccount') ? 'deletingAccount' : null,
  );
  if (sub === 'renaming') return <RenameCredential />;
  if (sub === 'deletingAccount') return <DeleteAccount />;
  return (
    <Screen title={t('profile.title')} className="profile-screen">
      <Saved />
      <UsernameSection />
      <EmailsSection />
      <PasswordSection />
      <WebAuthnSection kind="passkey" />
      <WebAuthnSection kind="security_key" />
      <AuthAppSection />
      <SessionsSection />
      <DeleteAccountSection />
    </Screen>
  );
}
