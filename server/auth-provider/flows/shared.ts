import type { ThirdParty } from '../thirdparty';
import type { MailMessage } from '../../adapters/mail/mailer';
import type { Tx } from '../../db/client';
import type { RateLimiters } from '../../http/rate-limit';
import type { AuthConfig } from '../config';
import { flowErrors, inputErrors, invalidInput } from '../flow/errors';
import type { ActionDef, FlowContext, InputDef, Outcome, StateDef } from '../flow/types';
import { CODELESS, passcodeMail, type PasscodeTemplate } from '../mail-templates';
import { overLimit } from '../over-limit';
import { mailWithinCap, newCodeWait, passcodeCallerWait } from '../passcode-limits';
import {
  checkPasscode,
  createPasscode,
  findPasscode,
  isUsable,
  joinPasscode,
  liveCode,
  newPasscode,
} from '../passcodes';
import type { SessionService } from '../sessions';
import type { SecretBox } from '../secret-box';
import { profileData, sessionEmail } from '../users';
import type { Saml } from '../saml';
import type { UserEvents } from '../user-events';
import type { NewCredential, RelyingParty } from '../webauthn';

/**
 * Where the provider's mails go; the host supplies it (the product's job queue in both
 * set-ups), so the provider knows no product feature.
 */
export interface MailOutbox {
  /** Stores the mail in the caller's transaction: it goes out only if that commits. */
  queue(tx: Tx, mail: MailMessage, options?: { notAfter?: Date }): Promise<string>;
}

/** The services flows use, bound to the flow's transaction. */
export interface AuthEnv {
  tx: Tx;
  auth: AuthConfig;
  publicUrl: string;
  sessions: SessionService;
  rateLimits: RateLimiters;
  /** Sign-in mails: stored and sent by the job queue. */
  mailer: MailOutbox;
  /** WebAuthn relying party (id, name, accepted origins). */
  rp: RelyingParty;
  /** Encrypts authenticator-app secrets. */
  secrets: SecretBox;
  /** Third-party sign-in providers. */
  thirdparty: ThirdParty;
  /** Tells the product of created and deleted users and changed primary e-mails. */
  events: UserEvents;
  /** SAML identity providers by e-mail domain. */
  saml: Saml;
}

/** The product hears (after the commit) that the user's primary address is now the stored one. */
export async function emailChangedAfterCommit(ctx: Ctx, userId: string) {
  const email = (await sessionEmail(ctx.env.tx, userId))?.address ?? null;
  ctx.afterCommit(() =>
    ctx.env.events.emit({ type: 'user.email_changed', userId, email, occurredAt: ctx.now }),
  );
}

export type Ctx = FlowContext<AuthEnv>;
export type Action = ActionDef<AuthEnv>;
export type State = StateDef<AuthEnv>;

/** Flow data keys (kept in the stash). */
export interface FlowData {
  webauthn_available?: boolean;
  webauthn_conditional_mediation_available?: boolean;
  webauthn_platform_authenticator_available?: boolean;
  /** The challenge of the WebAuthn options last sent, and what they were for. */
  webauthn_challenge?: string;
  webauthn_purpose?: 'login' | 'mfa' | 'create_passkey' | 'create_security_key';
  /** Registration: verified credentials and the authenticator-app secret, stored with the user. */
  pending_credentials?: NewCredential[];
  pending_otp?: { secret: string; step: number };
  /** mfa_otp_secret_creation: the secret being set up (sealed). */
  otp_setup_secret?: string;
  mfa_method?: 'totp' | 'security_key';
  /** mfa_method_chooser was scheduled once in this flow. */
  mfa_chooser_scheduled?: boolean;
  /** Login: the user's second factors, read when the credential was proven. */
  user_has_otp?: boolean;
  user_has_security_key?: boolean;
  user_has_password?: boolean;
  user_has_webauthn?: boolean;
  /** The passkey offer was skipped (registration: stored with the user). */
  passkey_declined?: boolean;
  /** Login: a recent decline keeps the passkey offer out of this sign-in. */
  passkey_snoozed?: boolean;
  /** Login: the methods the identified account has (only_show_actual_login_methods). */
  account_methods?: { password: boolean; passkey: boolean; email: boolean };
  /** Login: the device is to be trusted when the session is issued. */
  trust_device?: boolean;
  email?: string;
  username?: string;
  user_id?: string;
  /** The address is unknown (login) or taken (registration): the flow leads nowhere. */
  dead_end?: boolean;
  passcode_template?: PasscodeTemplate;
  recovery_pending?: boolean;
  email_verified?: boolean;
  password_hash?: string;
  login_method?: 'password' | 'passcode' | 'passkey' | 'third_party';
  /** thirdparty_oauth: the provider chosen, and the SDK's PKCE verifier for exchange_token. */
  thirdparty_provider?: string;
  thirdparty_code_verifier?: string;
  /** hanko_token ids already exchanged in this flow. */
  thirdparty_used?: string[];
  sticky?: { passcode_id?: string; passcode_email?: string };
  /** onboarding_email: the address in `email` waits for its code. */
  onboarding_email?: boolean;
  /** "Angemeldet bleiben" was checked (retention `prompt`). */
  remember_me?: boolean;
}

export const dataOf = (ctx: Ctx) => ctx.data as FlowData;

export { overLimit };

/** 429 in a flow: the error plus the wait in the payload and in Retry-After. */
export function rateLimited(ctx: Ctx, seconds: number, field: 'retry_after' | 'resend_after') {
  ctx.payload[field] = seconds;
  ctx.headers['retry-after'] = String(seconds);
  return { kind: 'error' as const, error: flowErrors.rateLimitExceeded };
}

export const preflight: State = {
  name: 'preflight',
  actions: [
    {
      name: 'register_client_capabilities',
      description: 'Send the computer capabilities.',
      inputs: () => [
        { name: 'webauthn_available', type: 'boolean', required: true, hidden: true },
        { name: 'webauthn_conditional_mediation_available', type: 'boolean', hidden: true },
        { name: 'webauthn_platform_authenticator_available', type: 'boolean', hidden: true },
      ],
      async execute(ctx) {
        const data = dataOf(ctx);
        data.webauthn_available = ctx.input.webauthn_available === true;
        data.webauthn_conditional_mediation_available =
          ctx.input.webauthn_conditional_mediation_available === true;
        data.webauthn_platform_authenticator_available =
          ctx.input.webauthn_platform_authenticator_available === true;
        return { kind: 'continue', states: [] };
      },
    },
  ],
};

/**
 * Sends a code to `data.email` with `data.passcode_template`, unless a usable one was sent
 * to the same address in this flow (and `force` is off). Codeless templates still create a
 * (never mailed) code, so an unknown address behaves like a known one from the outside.
 * While a code for the address lives (asked by anyone), the flow shares it and it is mailed
 * again, up to the address's hourly cap, instead of a new one (passcode-limits.ts).
 * Returns false when the rate limit refused it.
 */
async function sendPasscode(ctx: Ctx, force: boolean): Promise<boolean> {
  const { tx, auth, secrets } = ctx.env;
  const data = dataOf(ctx);
  const email = data.email;
  if (!email) throw new Error('passcode_confirmation without an e-mail address');
  const template = data.passcode_template ?? 'login';
  const sticky = (data.sticky ??= {});
  const existing =
    sticky.passcode_id && sticky.passcode_email === email
      ? await findPasscode(tx, sticky.passcode_id)
      : null;
  if (!force && isUsable(existing, email, auth.AUTH_PASSCODE_MAX_TRIES, ctx.now)) return true;
  if (force && existing && new Date(existing.resendAfter) > ctx.now) {
    const wait = Math.ceil((new Date(existing.resendAfter).getTime() - ctx.now.getTime()) / 1000);
    rateLimited(ctx, wait, 'resend_after');
    return false;
  }
  const callerWait = await passcodeCallerWait(ctx, email);
  if (callerWait !== null) {
    rateLimited(ctx, callerWait, 'resend_after');
    return false;
  }

  const live = await liveCode(tx, email, auth.AUTH_PASSCODE_MAX_TRIES, ctx.now);
  const shared = live ? openSealed(secrets, live.codeSealed) : null;
  if (live && shared !== null) {
    sticky.passcode_id =
      existing?.codeHash === live.codeHash &&
      isUsable(existing, email, auth.AUTH_PASSCODE_MAX_TRIES, ctx.now)
        ? existing.id
        : await joinPasscode(tx, live, {
            flowId: ctx.flowId,
            resendAfterSeconds: 30,
            now: ctx.now,
          });
    sticky.passcode_email = email;
    // Beyond the cap the code is not mailed again: it is already in the mailbox.
    if (await mailWithinCap(ctx, email))
      await queuePasscodeMail(ctx, email, template, shared, new Date(live.expiresAt));
    return true;
  }

  const wait = await newCodeWait(ctx, email);
  if (wait !== null) {
    rateLimited(ctx, wait, 'resend_after');
    return false;
  }
  const code = newPasscode();
  sticky.passcode_id = await createPasscode(tx, {
    flowId: ctx.flowId,
    userId: null,
    email,
    code,
    ttlSeconds: auth.AUTH_PASSCODE_TTL_SECONDS,
    resendAfterSeconds: 30,
    now: ctx.now,
    sealed: secrets.seal(code),
  });
  sticky.passcode_email = email;
  // A new code is mailed even over the cap (it would be of no use otherwise); it counts.
  await mailWithinCap(ctx, email);
  await queuePasscodeMail(
    ctx,
    email,
    template,
    code,
    new Date(ctx.now.getTime() + auth.AUTH_PASSCODE_TTL_SECONDS * 1000),
  );
  return true;
}

/** A sealed code, or null when it cannot be opened (sealed under a key no longer in use). */
function openSealed(secrets: SecretBox, sealed: string): string | null {
  try {
    return secrets.open(sealed);
  } catch {
    return null;
  }
}

async function queuePasscodeMail(
  ctx: Ctx,
  email: string,
  template: PasscodeTemplate,
  code: string,
  expires: Date,
) {
  const ttlSeconds = Math.max(1, Math.round((expires.getTime() - ctx.now.getTime()) / 1000));
  const mail = passcodeMail(
    template,
    CODELESS.has(template) ? '' : code,
    ttlSeconds,
    ctx.env.publicUrl,
  );
  // Queued in the flow's transaction: answered at once, stored, retried until the code expires.
  await ctx.env.mailer.queue(
    ctx.env.tx,
    { to: email, template: `auth_${template}`, ...mail },
    { notAfter: expires },
  );
}

/** `passcode_confirmation`; `onVerified` decides where a right code leads. */
export function passcodeConfirmation(onVerified: (ctx: Ctx) => Promise<Outcome>): State {
  return {
    name: 'passcode_confirmation',
    back: true,
    async before(ctx) {
      if (!ctx.entered || ctx.payload.resend_after !== undefined) return;
      if (!(await sendPasscode(ctx, false))) ctx.setFlowError(flowErrors.rateLimitExceeded);
    },
    actions: [
      {
        name: 'verify_passcode',
        description: 'Enter a passcode.',
        inputs: () => [{ name: 'code', type: 'string', required: true, trim: true, maxLength: 64 }],
        async execute(ctx) {
          const { tx, auth, rateLimits } = ctx.env;
          const wait = await overLimit(rateLimits.passcodeAttempt, ctx.request.ip);
          if (wait !== null) return rateLimited(ctx, wait, 'retry_after');
          const result = await checkPasscode(
            tx,
            dataOf(ctx).sticky?.passcode_id,
            String(ctx.input.code),
            auth.AUTH_PASSCODE_MAX_TRIES,
            ctx.now,
          );
          if (result === 'max_attempts')
            return { kind: 'error', error: flowErrors.passcodeMaxAttemptsReached };
          if (result === 'invalid') return invalidInput('code', inputErrors.passcodeInvalid);
          if (dataOf(ctx).dead_end)
            return { kind: 'error', error: flowErrors.operationNotPermitted };
          ctx.preventRevert();
          return onVerified(ctx);
        },
      },
      {
        name: 'resend_passcode',
        description: 'Send a new passcode.',
        async execute(ctx) {
          if (!(await sendPasscode(ctx, true)))
            return { kind: 'error', error: flowErrors.rateLimitExceeded };
          return { kind: 'stay' };
        },
      },
    ],
  };
}

/** `success`: the session is issued (protocol §1.5) and described in the payload. */
export function success(
  prepare: (ctx: Ctx) => Promise<{ userId: string; amr: string[] }>,
  lastLogin: boolean,
): State {
  return {
    name: 'success',
    actions: [],
    async before(ctx) {
      const { tx, auth, sessions } = ctx.env;
      const { userId, amr } = await prepare(ctx);
      const issued = await sessions.issue(tx, {
        userId,
        email: await sessionEmail(tx, userId),
        amr,
        ip: ctx.request.ip,
        userAgent: ctx.request.userAgent ?? null,
        now: ctx.now,
      });
      const lifetime = auth.AUTH_SESSION_LIFETIME_SECONDS;
      const persistent =
        auth.AUTH_SESSION_RETENTION === 'persistent' ||
        (auth.AUTH_SESSION_RETENTION === 'prompt' && dataOf(ctx).remember_me === true);
      ctx.headers['x-session-lifetime'] = String(lifetime);
      ctx.headers['x-session-retention'] = persistent ? 'persistent' : 'session';
      if (auth.AUTH_SESSION_TOKEN_HEADER) ctx.headers['x-auth-token'] = issued.token;
      else addCookie(ctx, sessionCookie(auth, issued.token, persistent ? lifetime : null));
      ctx.payload.user = await profileData(tx, userId, auth);
      ctx.payload.claims = issued.claims;
      const { login_method: method, mfa_method: mfa } = dataOf(ctx);
      if (lastLogin && method) {
        const provider = method === 'third_party' ? dataOf(ctx).thirdparty_provider : undefined;
        ctx.payload.last_login = {
          login_method: method,
          ...(provider ? { third_party_provider: provider } : {}),
          ...(mfa ? { mfa_method: mfa } : {}),
        };
      }
    },
  };
}

/** Adds a Set-Cookie header to the response (several may be set). */
export function addCookie(ctx: Ctx, cookie: string) {
  const existing = ctx.headers['set-cookie'];
  ctx.headers['set-cookie'] = existing === undefined ? cookie : [...[existing].flat(), cookie];
}

/** The session cookie (cookie mode); maxAge -1 expires it, null: until the browser closes. */
export function sessionCookie(auth: AuthConfig, token: string, maxAge: number | null): string {
  const parts = [
    `${auth.AUTH_COOKIE_NAME}=${token}`,
    'Path=/',
    ...(maxAge === null ? [] : [`Max-Age=${maxAge}`]),
    'HttpOnly',
  ];
  if (auth.AUTH_COOKIE_SECURE) parts.push('Secure');
  parts.push(
    `SameSite=${auth.AUTH_COOKIE_SAME_SITE[0]!.toUpperCase()}${auth.AUTH_COOKIE_SAME_SITE.slice(1)}`,
  );
  if (auth.AUTH_COOKIE_DOMAIN) parts.push(`Domain=${auth.AUTH_COOKIE_DOMAIN}`);
  return parts.join('; ');
}

/**
 * "Angemeldet bleiben" (retention `prompt`): remembered in the flow, the session then lasts
 * its lifetime; without it, until the browser closes.
 */
export const rememberMe: Action = {
  name: 'remember_me',
  description: 'Enables the remember me option.',
  inputs: () => [{ name: 'remember_me', type: 'boolean', required: true, preserve: true }],
  enabled: (ctx) => ctx.env.auth.AUTH_SESSION_RETENTION === 'prompt',
  async execute(ctx) {
    dataOf(ctx).remember_me = ctx.input.remember_me === true;
    return { kind: 'stay' };
  },
};

export function emailInput(auth: AuthConfig, extra: Partial<InputDef> = {}): InputDef {
  return {
    name: 'email',
    type: 'email',
    required: true,
    minLength: 3,
    maxLength: auth.AUTH_EMAIL_MAX_LENGTH,
    trim: true,
    lowercase: true,
    preserve: true,
    ...extra,
  };
}

export function usernameInput(auth: AuthConfig): InputDef {
  return {
    name: 'username',
    type: 'string',
    required: auth.AUTH_USERNAME === 'required',
    minLength: auth.AUTH_USERNAME_MIN_LENGTH,
    maxLength: auth.AUTH_USERNAME_MAX_LENGTH,
    trim: true,
    lowercase: true,
    preserve: true,
  };
}

export const USERNAME_PATTERN = /^\w+$/;
