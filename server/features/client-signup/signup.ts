/**
 * Client sign-up (`POST /client/signup`, public by the specification): the client record, and
 * — when the caller has just registered and sends their token — the link between that account
 * and the record, in one transaction. Without a token the record waits for the person's first
 * sign-in with the same verified e-mail (server/features/account links it then).
 */
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { clients, users } from '../../db/schema/index';
import type { TokenClaims } from '../../http/auth';
import type { AppDeps, Body } from '../../http/handler';
import { badRequest, conflict, HttpProblem } from '../../http/problem';
import { recordEvent } from '../events/index';
import { clientData, emitWebhook } from '../webhooks/index';
import { queueSignInLink } from './request-auth';
import { assertClientFields } from '../clients/index';

export type SignupBody = Body<'signupClient'>;

const blankToNull = (value: string | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/**
 * What the contract's schema cannot say: the client field rules shared with the form in the
 * browser and the staff API (shared/client-fields.rules.ts). 400 naming the first field
 * that breaks one.
 */
export function checkSignup(body: SignupBody, now: Date) {
  assertClientFields(body, now);
  if ((body.clientType ?? 'self') === 'relative' && !body.contactPerson) {
    throw badRequest(
      'contactPerson',
      'value_missing',
      'A client of type relative needs a contact person',
    );
  }
}

/** The client who has this address already (any case), locked for the rest of the sign-up. */
async function clientWithEmail(tx: Tx, email: string) {
  const [row] = await tx
    .select({
      id: clients.id,
      userId: clients.userId,
      firstName: clients.firstName,
      lastName: clients.lastName,
      email: clients.email,
      telephone: clients.telephone,
    })
    .from(clients)
    .where(sql`lower(${clients.email}) = lower(${email})`)
    .limit(1)
    .for('update');
  return row ?? null;
}

/** The caller's users row, created (role NONE) when their first POST /login has not run yet. */
async function accountOf(tx: Tx, claims: TokenClaims, create: boolean) {
  const select = () =>
    tx.select().from(users).where(eq(users.authSubject, claims.subject)).for('update');
  const [found] = await select();
  if (found || !create) return found ?? null;
  await tx
    .insert(users)
    .values({ authSubject: claims.subject, email: claims.email ?? '', role: 'NONE', active: false })
    .onConflictDoNothing();
  const [row] = await select();
  return row!;
}

export interface SignupOutcome {
  /** The record the signed-in person now owns (201); null when nothing was linked. */
  clientId: string | null;
  linkedUserId: string | null;
}

type SignupDeps = Pick<AppDeps, 'now' | 'config' | 'jobs' | 'rateLimits'>;

/**
 * The sign-in link to a client who has the address already. Anyone may type any address
 * into the form, so the answer never says whether it is a client's: the owner learns it by
 * e-mail. Per address at most a few links per quarter hour; past that nothing goes out, and
 * the answer stays the same.
 */
async function mailSignInLink(
  tx: Tx,
  deps: SignupDeps,
  client: NonNullable<Awaited<ReturnType<typeof clientWithEmail>>>,
) {
  try {
    await deps.rateLimits.clientAuthRequest.consume(client.email!.trim().toLowerCase());
  } catch (error) {
    if (error instanceof HttpProblem && error.status === 429) return;
    throw error;
  }
  await queueSignInLink(tx, deps, client, 'email');
}

function recordValues(body: SignupBody, email: string, userId: string | null) {
  const contactPerson = body.contactPerson
    ? {
        firstName: body.contactPerson.firstName.trim(),
        lastName: body.contactPerson.lastName.trim(),
        email: blankToNull(body.contactPerson.email ?? undefined),
        telephone: blankToNull(body.contactPerson.telephone ?? undefined),
      }
    : null;
  return {
    userId,
    firstName: body.firstName.trim(),
    lastName: body.lastName.trim(),
    email,
    yearOfBirth: body.yearOfBirth ?? null,
    street: blankToNull(body.street),
    city: blankToNull(body.city),
    postalCode: blankToNull(body.postalCode)?.toUpperCase() ?? null,
    country: body.country ?? 'DE',
    telephone: blankToNull(body.telephone),
    additionalTelephoneNumbers: blankToNull(body.additionalTelephoneNumbers),
    insurer: blankToNull(body.insurer),
    insurerCode: blankToNull(body.insurerCode)?.toUpperCase() ?? null,
    campaign: blankToNull(body.campaign),
    clientType: body.clientType ?? 'self',
    contactPerson: (body.clientType ?? 'self') === 'relative' ? contactPerson : null,
    howDidYouHearAboutUs: blankToNull(body.howDidYouHearAboutUs),
    wantsToProvideRecordingsForResearch: body.wantsToProvideRecordingsForResearch ?? false,
    // Consent is given by ticking the box, never by leaving out the field.
    notifyViaSms: body.notifyViaSms === true,
    smsConsentAt: body.notifyViaSms === true ? sql`now()` : null,
  };
}

async function activate(tx: Tx, userId: string) {
  await tx
    .update(users)
    .set({ active: true, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

/**
 * Checks and (unless `validateOnly`) writes, inside `tx`.
 *
 * Without a token (the check before registering, or a sign-up by API) the answer is the same
 * whether or not a client has the address: a known address gets the sign-in link by e-mail
 * and nothing is written; an unknown one is created (not when only checking) and, created,
 * gets the same link. With a token the person has proved the address (its verified e-mail
 * is the form's): the account must be a NONE account without a client; a client record with
 * the address that nobody owns yet becomes theirs (the record staff keep stays as it is).
 */
export async function signUp(
  tx: Tx,
  deps: SignupDeps,
  input: { body: SignupBody; claims: TokenClaims | null; validateOnly: boolean },
): Promise<SignupOutcome> {
  const { body, claims } = input;
  checkSignup(body, deps.now());
  const email = body.email.trim();
  if (claims && (!claims.email || claims.email.toLowerCase() !== email.toLowerCase())) {
    throw badRequest('email', 'email_mismatch', 'The e-mail differs from the signed-in address');
  }
  const known = await clientWithEmail(tx, email);
  if (!claims) {
    if (known) {
      await mailSignInLink(tx, deps, known);
      return { clientId: null, linkedUserId: null };
    }
    if (input.validateOnly) return { clientId: null, linkedUserId: null };
    const [row] = await tx
      .insert(clients)
      .values(recordValues(body, email, null))
      .returning({ id: clients.id });
    await recordCreated(tx, deps, body, row!.id, false);
    await mailSignInLink(tx, deps, { ...recordValues(body, email, null), id: row!.id });
    return { clientId: null, linkedUserId: null };
  }

  const account = await accountOf(tx, claims, !input.validateOnly);
  if (account) {
    const [linked] = await tx
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.userId, account.id));
    if (account.role !== 'NONE' || linked) {
      throw conflict('account_not_eligible', 'This account is staff or a client already');
    }
  }
  // The address is the caller's own (verified), so saying it has an account tells no stranger.
  if (known?.userId) {
    throw conflict('email_taken', 'A client with this e-mail address exists already');
  }
  if (input.validateOnly || !account) return { clientId: null, linkedUserId: null };

  if (known) {
    await tx.update(clients).set({ userId: account.id }).where(eq(clients.id, known.id));
    await activate(tx, account.id);
    await recordEvent(tx, {
      type: 'user.updated',
      entityType: 'user',
      entityId: account.id,
      clientId: known.id,
      important: false,
      changes: { active: { from: false, to: true }, via: 'signup' },
    });
    return { clientId: known.id, linkedUserId: account.id };
  }
  const [row] = await tx
    .insert(clients)
    .values(recordValues(body, email, account.id))
    .returning({ id: clients.id });
  await activate(tx, account.id);
  await recordCreated(tx, deps, body, row!.id, true);
  return { clientId: row!.id, linkedUserId: account.id };
}

// Client records hold health data: the trail names the fields given, not their values.
async function recordCreated(
  tx: Tx,
  deps: SignupDeps,
  body: SignupBody,
  clientId: string,
  linked: boolean,
) {
  await recordEvent(tx, {
    type: 'client.created',
    entityType: 'client',
    entityId: clientId,
    clientId,
    changes: { fields: Object.keys(body).sort(), via: 'signup', linked },
  });
  await emitWebhook(tx, deps.jobs, 'client.created', clientData(clientId, null));
}
