import {
  addEmail,
  deleteAccount,
  deleteEmail,
  deleteSession,
  deletePassword,
  deletableEmails,
  deleteUsername,
  emailsOf,
  markVerified,
  primaryCandidates,
  setPrimaryEmail,
  setUsername,
  usernameOf,
  type EmailRow,
} from '../accounts';
import { PASSWORD_MAX_BYTES, type AuthConfig } from '../config';
import { flowErrors, inputErrors, invalidInput } from '../flow/errors';
import type { FlowDef, InputDef, Outcome } from '../flow/types';
import { METADATA_MAX_CHARS, patchUnsafeMetadata } from '../metadata';
import { hashPassword, hasPassword, passwordPolicyError, setPasswordHash } from '../passwords';
import { deleteOtpSecret, otpSecretOf, saveOtpSecret } from '../totp';
import { findUserByEmail, findUserByUsername, profileData } from '../users';
import {
  credentialsOf,
  deleteCredential,
  insertCredential,
  renameCredential,
  type CredentialRow,
} from '../webauthn';
import {
  credentialStates,
  mfaEnabled,
  passkeysUsable,
  securityKeysUsable,
  totpUsable,
  type CredentialSink,
} from './credentials';
import {
  emailChangedAfterCommit,
  emailInput,
  passcodeConfirmation,
  preflight,
  sessionCookie,
  usernameInput,
  USERNAME_PATTERN,
  type Action,
  type AuthEnv,
  type Ctx,
  type FlowData,
  type State,
} from './shared';

/** What profile_init knows of the user; loaded by its `before` hook and before each action. */
interface Snapshot {
  emails: EmailRow[];
  hasPassword: boolean;
  username: string | null;
  otherSessions: { id: string; userAgent: string | null }[];
  credentials: CredentialRow[];
  otp: boolean;
}

/** Profile data kept in the flow between the action and the passcode. */
interface ProfileFlowData {
  profile_email_action?: 'create' | 'verify';
  profile_email_id?: string;
}

const profileDataOf = (ctx: Ctx) => ctx.data as ProfileFlowData & FlowData;

/** The session's user (the plugin refuses requests without a valid session). */
function userIdOf(ctx: Ctx): string {
  const session = ctx.request.session;
  if (!session) throw new Error('profile flow without a session');
  return session.userId;
}

const snapshots = new WeakMap<object, Snapshot>();

/**
 * Loads what decides which actions are offered. Cached per request (the context's data
 * object is new per request), refreshed by `profile_init`'s `before` hook after a change.
 */
async function load(ctx: Ctx, fresh = false): Promise<Snapshot> {
  const cached = snapshots.get(ctx.data);
  if (cached && !fresh) return cached;
  const { tx, sessions } = ctx.env;
  const userId = userIdOf(ctx);
  const current = ctx.request.session!.sessionId;
  const snapshot: Snapshot = {
    emails: await emailsOf(tx, userId),
    hasPassword: await hasPassword(tx, userId),
    username: (await usernameOf(tx, userId))?.username ?? null,
    otherSessions: (await sessions.list(tx, userId, ctx.now))
      .filter((s) => s.id !== current)
      .map((s) => ({ id: s.id, userAgent: s.userAgent })),
    credentials: await credentialsOf(tx, userId),
    otp: !!(await otpSecretOf(tx, userId)),
  };
  snapshots.set(ctx.data, snapshot);
  return snapshot;
}

/** `enabled` is synchronous: it reads the snapshot the engine's probe loaded. */
const snap = (ctx: Ctx): Snapshot | undefined => snapshots.get(ctx.data);

const stay = async (): Promise<Outcome> => ({ kind: 'stay' });

const passkeysOf = (s: Snapshot | undefined) => (s?.credentials ?? []).filter((c) => !c.mfaOnly);
const securityKeysOf = (s: Snapshot | undefined) => (s?.credentials ?? []).filter((c) => c.mfaOnly);

/** The profile stores new credentials at once and returns to profile_init. */
const profileSink: CredentialSink = {
  flow: 'profile',
  userId: userIdOf,
  userName: (ctx) => {
    const emails = snap(ctx)?.emails ?? [];
    return (emails.find((e) => e.isPrimary) ?? emails[0])?.address ?? snap(ctx)?.username ?? 'user';
  },
  async summary(ctx) {
    const s = await load(ctx, true);
    return {
      password: s.hasPassword,
      passkeys: passkeysOf(s).length,
      securityKeys: securityKeysOf(s).length,
      otp: s.otp,
      email: s.emails.length > 0,
    };
  },
  existing: (ctx) => credentialsOf(ctx.env.tx, userIdOf(ctx)),
  saveCredential: (ctx, credential) =>
    insertCredential(ctx.env.tx, userIdOf(ctx), credential, ctx.now),
  saveOtp: (ctx, sealed, step) => saveOtpSecret(ctx.env.tx, userIdOf(ctx), sealed, step),
  savePassword: (ctx, hash) => setPasswordHash(ctx.env.tx, userIdOf(ctx), hash, ctx.now),
  // The flow's data is cleared of the MFA-chooser mark, so set-up is offered again next time.
  after: ['profile_init'],
};

const PROFILE_CREDENTIAL_STATES = new Set([
  'webauthn_credential_verification',
  'onboarding_verify_passkey_attestation',
  'mfa_otp_secret_creation',
  'mfa_security_key_creation',
]);

export function profileFlow(auth: AuthConfig): FlowDef<AuthEnv> {
  const passwords = auth.AUTH_PASSWORD_ENABLED;
  const usernames = auth.AUTH_USERNAME !== 'off';
  const verify = auth.AUTH_EMAIL_REQUIRE_VERIFICATION;

  /** Another way to sign in than the password: a passcode to one of the user's addresses. */
  const passcodeLogin = (s: Snapshot) =>
    auth.AUTH_PASSCODE_LOGIN && s.emails.some((e) => e.verified || !verify);

  const passwordInput = (): InputDef[] => [
    {
      name: 'password',
      type: 'string',
      required: true,
      minLength: auth.AUTH_PASSWORD_MIN_LENGTH,
      maxLength: PASSWORD_MAX_BYTES,
    },
  ];

  async function savePassword(ctx: Ctx): Promise<Outcome> {
    const password = String(ctx.input.password);
    const policy = passwordPolicyError(password, auth.AUTH_PASSWORD_MIN_LENGTH);
    if (policy) {
      return invalidInput(
        'password',
        policy === 'too_short' ? inputErrors.valueTooShort : inputErrors.valueTooLong,
      );
    }
    await setPasswordHash(ctx.env.tx, userIdOf(ctx), await hashPassword(password), ctx.now);
    return stay();
  }

  async function saveUsername(ctx: Ctx): Promise<Outcome> {
    const username = String(ctx.input.username ?? '');
    if (!username) return invalidInput('username', inputErrors.valueMissing);
    if (!USERNAME_PATTERN.test(username))
      return invalidInput('username', inputErrors.invalidUsername);
    const taken = await findUserByUsername(ctx.env.tx, username);
    if (taken && taken.userId !== userIdOf(ctx))
      return invalidInput('username', inputErrors.usernameAlreadyExists);
    await setUsername(ctx.env.tx, userIdOf(ctx), username, ctx.now);
    return stay();
  }

  const emailIdInput = (values: EmailRow[]): InputDef[] => [
    {
      name: 'email_id',
      type: 'string',
      required: true,
      hidden: true,
      allowedValues: values.map((e) => ({ value: e.id, name: e.address })),
    },
  ];

  /** Passcode login or a password remain when this passkey goes. */
  const otherLoginMethod = (s: Snapshot) => passcodeLogin(s) || (passwords && s.hasPassword);

  const credentialIdInput = (name: string, rows: CredentialRow[]): InputDef[] => [
    {
      name,
      type: 'string',
      required: true,
      hidden: true,
      allowedValues: rows.map((c) => ({
        value: c.id.slice(0, 255),
        name: (c.name ?? c.id).slice(0, 255),
      })),
    },
  ];

  const credentialActions: Action[] = [
    {
      name: 'webauthn_credential_create',
      description: 'Create a WebAuthn credential for the current session user.',
      enabled: (ctx) =>
        passkeysUsable(ctx) &&
        (snap(ctx)?.credentials.length ?? Infinity) < auth.AUTH_PASSKEY_LIMIT,
      async execute(ctx) {
        ctx.data.webauthn_purpose = 'create_passkey';
        return { kind: 'continue', states: ['webauthn_credential_verification'] };
      },
    },
    {
      name: 'webauthn_credential_rename',
      description: 'Rename a WebAuthn credential.',
      inputs: () => [
        { name: 'passkey_id', type: 'string', required: true, hidden: true, maxLength: 1024 },
        {
          name: 'passkey_name',
          type: 'string',
          required: true,
          trim: true,
          minLength: 3,
          maxLength: 128,
        },
      ],
      enabled: (ctx) => auth.AUTH_PASSKEYS_ENABLED && (snap(ctx)?.credentials.length ?? 0) > 0,
      async execute(ctx) {
        // 3 to 32 characters (the declared lengths are bytes, like Hanko's).
        const name = String(ctx.input.passkey_name);
        const length = [...name].length;
        if (length < 3) return invalidInput('passkey_name', inputErrors.valueTooShort);
        if (length > 32) return invalidInput('passkey_name', inputErrors.valueTooLong);
        const renamed = await renameCredential(
          ctx.env.tx,
          userIdOf(ctx),
          String(ctx.input.passkey_id),
          name,
          ctx.now,
        );
        if (!renamed) return { kind: 'error', error: flowErrors.notFound };
        return stay();
      },
    },
    {
      name: 'webauthn_credential_delete',
      description: 'Delete a WebAuthn credential.',
      inputs: () => [
        { name: 'passkey_id', type: 'string', required: true, hidden: true, maxLength: 1024 },
      ],
      enabled: (ctx) => {
        const s = snap(ctx);
        const passkeys = passkeysOf(s).length;
        if (!auth.AUTH_PASSKEYS_ENABLED || !s || passkeys === 0) return false;
        // The last passkey stays when passkeys are required or nothing else signs in.
        return passkeys > 1 || (auth.AUTH_PASSKEY_OPTIONAL && otherLoginMethod(s));
      },
      async execute(ctx) {
        const s = await load(ctx);
        const id = String(ctx.input.passkey_id);
        if (!passkeysOf(s).some((c) => c.id === id))
          return { kind: 'error', error: flowErrors.notFound };
        await deleteCredential(ctx.env.tx, userIdOf(ctx), id);
        return stay();
      },
    },
    {
      name: 'security_key_create',
      description: 'Create a security key.',
      enabled: (ctx) =>
        securityKeysUsable(ctx) &&
        securityKeysOf(snap(ctx)).length < auth.AUTH_MFA_SECURITY_KEY_LIMIT &&
        (snap(ctx)?.credentials.length ?? Infinity) < auth.AUTH_PASSKEY_LIMIT,
      async execute(ctx) {
        ctx.data.webauthn_purpose = 'create_security_key';
        return { kind: 'continue', states: ['webauthn_credential_verification'] };
      },
    },
    {
      name: 'security_key_delete',
      description: 'Delete a security key.',
      inputs: (ctx) => credentialIdInput('security_key_id', securityKeysOf(snap(ctx))),
      enabled: (ctx) => {
        const s = snap(ctx);
        const keys = securityKeysOf(s).length;
        if (!mfaEnabled(ctx) || !auth.AUTH_MFA_SECURITY_KEYS || !s || keys === 0) return false;
        // Not the last second factor when MFA is required.
        return auth.AUTH_MFA !== 'required' || keys > 1 || s.otp;
      },
      async execute(ctx) {
        // allowed_values limited the id to the user's security keys.
        await deleteCredential(ctx.env.tx, userIdOf(ctx), String(ctx.input.security_key_id));
        return stay();
      },
    },
    {
      name: 'continue_to_otp_secret_creation',
      description: 'Set up an authenticator app.',
      enabled: (ctx) => totpUsable(ctx) && snap(ctx)?.otp === false,
      execute: async () => ({ kind: 'continue', states: ['mfa_otp_secret_creation'] }),
    },
    {
      name: 'continue_to_security_key_creation',
      description: 'Create a security key.',
      enabled: (ctx) =>
        securityKeysUsable(ctx) &&
        securityKeysOf(snap(ctx)).length < auth.AUTH_MFA_SECURITY_KEY_LIMIT &&
        (snap(ctx)?.credentials.length ?? Infinity) < auth.AUTH_PASSKEY_LIMIT,
      execute: async () => ({ kind: 'continue', states: ['mfa_security_key_creation'] }),
    },
    {
      name: 'otp_secret_delete',
      description: 'Delete the authenticator app.',
      enabled: (ctx) => {
        const s = snap(ctx);
        if (!s?.otp) return false;
        return auth.AUTH_MFA !== 'required' || securityKeysOf(s).length > 0;
      },
      async execute(ctx) {
        await deleteOtpSecret(ctx.env.tx, userIdOf(ctx));
        return stay();
      },
    },
  ];

  const actions: Action[] = [
    {
      name: 'email_create',
      description: 'Create an email address for the current session user.',
      inputs: () => [emailInput(auth)],
      enabled: (ctx) => (snap(ctx)?.emails.length ?? Infinity) < auth.AUTH_EMAIL_LIMIT,
      async execute(ctx) {
        const { tx } = ctx.env;
        const data = profileDataOf(ctx);
        const email = String(ctx.input.email);
        const userId = userIdOf(ctx);
        const taken = await findUserByEmail(tx, email);
        if (
          taken &&
          (taken.userId === userId || !verify || auth.AUTH_SHOW_ACCOUNT_EXISTENCE_HINTS)
        ) {
          return invalidInput('email', inputErrors.emailAlreadyExists);
        }
        if (!verify) {
          const added = await addEmail(tx, userId, email, false, ctx.now);
          if (added.isPrimary) await emailChangedAfterCommit(ctx, userId);
          return stay();
        }
        data.email = email;
        data.profile_email_action = 'create';
        // Taken by someone else: looks like a new address; the owner gets a codeless mail (Q7).
        data.dead_end = !!taken;
        data.passcode_template = taken ? 'email_registration_attempted' : 'email_verification';
        return { kind: 'continue', states: ['passcode_confirmation'] };
      },
    },
    {
      name: 'email_delete',
      description: 'Delete an email address.',
      inputs: (ctx) => emailIdInput(deletableEmails(snap(ctx)?.emails ?? [])),
      enabled: (ctx) => deletableEmails(snap(ctx)?.emails ?? []).length > 0,
      async execute(ctx) {
        // allowed_values already limited the id to the user's deletable addresses.
        await deleteEmail(ctx.env.tx, userIdOf(ctx), String(ctx.input.email_id), ctx.now);
        return stay();
      },
    },
    {
      name: 'email_set_primary',
      description: 'Set an email address as primary.',
      inputs: () => [{ name: 'email_id', type: 'string', required: true, hidden: true }],
      enabled: (ctx) => primaryCandidates(snap(ctx)?.emails ?? []).length > 0,
      async execute(ctx) {
        const s = await load(ctx);
        const target = s.emails.find((e) => e.id === ctx.input.email_id);
        if (!target) return { kind: 'error', error: flowErrors.notFound };
        if (!target.verified && verify) return invalidInput('email_id', inputErrors.valueInvalid);
        await setPrimaryEmail(ctx.env.tx, userIdOf(ctx), target.id, ctx.now);
        await emailChangedAfterCommit(ctx, userIdOf(ctx));
        return stay();
      },
    },
    {
      name: 'email_verify',
      description: 'Verify an email address.',
      inputs: (ctx) => emailIdInput((snap(ctx)?.emails ?? []).filter((e) => !e.verified)),
      enabled: (ctx) => (snap(ctx)?.emails ?? []).some((e) => !e.verified),
      async execute(ctx) {
        const s = await load(ctx);
        const target = s.emails.find((e) => e.id === ctx.input.email_id && !e.verified);
        if (!target) return { kind: 'error', error: flowErrors.notFound };
        const data = profileDataOf(ctx);
        data.email = target.address;
        data.profile_email_action = 'verify';
        data.profile_email_id = target.id;
        data.dead_end = false;
        data.passcode_template = 'email_verification';
        return { kind: 'continue', states: ['passcode_confirmation'] };
      },
    },
    {
      name: 'password_create',
      description: 'Create a password.',
      inputs: passwordInput,
      enabled: (ctx) => passwords && snap(ctx)?.hasPassword === false,
      execute: savePassword,
    },
    {
      name: 'password_update',
      description: 'Update a password.',
      inputs: passwordInput,
      enabled: (ctx) => passwords && snap(ctx)?.hasPassword === true,
      execute: savePassword,
    },
    {
      name: 'password_delete',
      description: 'Delete a password.',
      enabled: (ctx) => {
        const s = snap(ctx);
        return passwords && auth.AUTH_PASSWORD_OPTIONAL && !!s?.hasPassword && passcodeLogin(s);
      },
      async execute(ctx) {
        await deletePassword(ctx.env.tx, userIdOf(ctx), ctx.now);
        return stay();
      },
    },
    {
      name: 'username_create',
      description: 'Create a username.',
      inputs: () => [{ ...usernameInput(auth), required: true }],
      enabled: (ctx) => usernames && snap(ctx)?.username === null,
      execute: saveUsername,
    },
    {
      name: 'username_update',
      description: 'Update the username.',
      inputs: () => [{ ...usernameInput(auth), required: true }],
      enabled: (ctx) => usernames && typeof snap(ctx)?.username === 'string',
      execute: saveUsername,
    },
    {
      name: 'username_delete',
      description: 'Delete the username.',
      enabled: (ctx) => {
        const s = snap(ctx);
        return (
          usernames &&
          auth.AUTH_USERNAME === 'optional' &&
          typeof s?.username === 'string' &&
          s.emails.length > 0
        );
      },
      async execute(ctx) {
        await deleteUsername(ctx.env.tx, userIdOf(ctx), ctx.now);
        return stay();
      },
    },
    {
      name: 'session_delete',
      description: 'Delete a session.',
      inputs: (ctx) => [
        {
          name: 'session_id',
          type: 'string',
          required: true,
          hidden: true,
          allowedValues: (snap(ctx)?.otherSessions ?? []).map((s) => ({
            value: s.id,
            name: (s.userAgent ?? s.id).slice(0, 255),
          })),
        },
      ],
      enabled: (ctx) => (snap(ctx)?.otherSessions.length ?? 0) > 0,
      async execute(ctx) {
        const { sessions } = ctx.env;
        const id = String(ctx.input.session_id);
        // allowed_values holds only the user's other sessions; the current one never.
        await deleteSession(ctx.env.tx, userIdOf(ctx), id);
        ctx.afterCommit(() => sessions.forget([id]));
        return stay();
      },
    },
    ...credentialActions,
    {
      // Hanko offers it always (the SDK's types declare it on profile_init).
      name: 'patch_metadata',
      description: 'Patch the (unsafe) metadata of the user',
      inputs: () => [{ name: 'patch_metadata', type: 'json', required: true, nullable: true }],
      async execute(ctx) {
        const patch = ctx.input.patch_metadata;
        if (patch !== null && (typeof patch !== 'object' || Array.isArray(patch))) {
          return invalidInput('patch_metadata', {
            ...inputErrors.invalidMetadata,
            cause: 'patch metadata must be an object or null',
          });
        }
        const result = await patchUnsafeMetadata(
          ctx.env.tx,
          userIdOf(ctx),
          patch as Record<string, unknown> | null,
          ctx.now,
        );
        if (result === 'too_large') {
          return invalidInput('patch_metadata', {
            ...inputErrors.invalidMetadata,
            cause: `metadata must not exceed character limit (${METADATA_MAX_CHARS})`,
          });
        }
        return stay();
      },
    },
    {
      name: 'account_delete',
      description: 'Delete the account.',
      enabled: () => auth.AUTH_ACCOUNT_DELETION,
      async execute(ctx) {
        const userId = userIdOf(ctx);
        const ended = await deleteAccount(ctx.env.tx, userId);
        ctx.afterCommit(() => ctx.env.sessions.forget(ended));
        ctx.afterCommit(() =>
          ctx.env.events.emit({ type: 'user.deleted', userId, email: null, occurredAt: ctx.now }),
        );
        ctx.headers['set-cookie'] = sessionCookie(auth, '', 0);
        ctx.preventRevert();
        return { kind: 'continue', states: ['account_deleted'] };
      },
    },
  ];

  const profileInit: State = {
    name: 'profile_init',
    actions,
    async before(ctx) {
      await load(ctx, true);
      ctx.payload.user = await profileData(ctx.env.tx, userIdOf(ctx), auth);
      const current = ctx.request.session!.sessionId;
      const rows = await ctx.env.sessions.list(ctx.env.tx, userIdOf(ctx), ctx.now);
      ctx.payload.sessions = rows.map((r) => ({
        id: r.id,
        ...(r.userAgent
          ? { user_agent_raw: r.userAgent, user_agent: r.userAgent.slice(0, 300) }
          : {}),
        ...(r.ipAddress ? { ip_address: r.ipAddress } : {}),
        current: r.id === current,
        created_at: r.createdAt,
        expires_at: r.expiresAt,
        last_used: r.lastUsed,
      }));
    },
  };

  const passcode = passcodeConfirmation(async (ctx) => {
    const { tx } = ctx.env;
    const data = profileDataOf(ctx);
    const userId = userIdOf(ctx);
    const email = data.email!;
    if (data.profile_email_action === 'verify' && data.profile_email_id) {
      await markVerified(tx, userId, data.profile_email_id, ctx.now);
    } else if (data.profile_email_action === 'create') {
      // Checked again: the address may have been taken, or the limit reached, meanwhile.
      const taken = await findUserByEmail(tx, email);
      const emails = await emailsOf(tx, userId);
      if (taken && taken.userId !== userId)
        return invalidInput('code', inputErrors.passcodeInvalid);
      if (!taken && emails.length < auth.AUTH_EMAIL_LIMIT) {
        const added = await addEmail(tx, userId, email, true, ctx.now);
        if (added.isPrimary) await emailChangedAfterCommit(ctx, userId);
      } else if (taken) await markVerified(tx, userId, taken.emailId, ctx.now);
    }
    delete data.email;
    delete data.profile_email_action;
    delete data.profile_email_id;
    delete data.dead_end;
    return { kind: 'continue', states: ['profile_init'] };
  });

  const accountDeleted: State = { name: 'account_deleted', actions: [] };

  return {
    name: 'profile',
    ttlSeconds: auth.AUTH_FLOW_TTL_SECONDS,
    initial: ['preflight', 'profile_init'],
    initialData: (request) => ({ owner_id: request.session?.userId }),
    // The flow belongs to the session that started it; what `enabled` reads is loaded here.
    async prepare(ctx) {
      if (!ctx.request.session || ctx.data.owner_id !== ctx.request.session.userId) {
        return flowErrors.operationNotPermitted;
      }
      await load(ctx);
      return null;
    },
    states: Object.fromEntries(
      [
        preflight,
        profileInit,
        passcode,
        ...credentialStates(profileSink).filter((s) => PROFILE_CREDENTIAL_STATES.has(s.name)),
        accountDeleted,
      ].map((s) => [s.name, s]),
    ),
  };
}
