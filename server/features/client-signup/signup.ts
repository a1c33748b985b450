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
import { badRequest, conflict } from '../../http/problem';
import { recordEvent } from '../events/record';
import {
  isEmail,
  isInsurerCode,
  isPhoneList,
  isPhoneNumber,
  isPlausibleYearOfBirth,
  isPostalCode,
} from '../../../src/machines/client-signup.validation';

export type SignupBody = Body<'signupClient'>;

const blankToNull = (value: string | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/**
 * What the contract's schema cannot say: the same rules as the form in the browser
 * (src/machines/client-signup.validation.ts). 400 naming the first field that breaks one.
 */
export function checkSignup(body: SignupBody, now: Date) {
  const year = Number(
    new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', year: 'numeric' }).format(now),
  );
  if (!body.firstName.trim()) throw badRequest('firstName', 'value_missing', 'First name is blank');
  if (!body.lastName.trim()) throw badRequest('lastName', 'value_missing', 'Last name is blank');
  if (!isEmail(body.email)) throw badRequest('email', 'invalid_email', 'Not an e-mail address');
  if (body.yearOfBirth !== undefined && !isPlausibleYearOfBirth(body.yearOfBirth, year)) {
    throw badRequest('yearOfBirth', 'implausible_year', 'Year of birth is not plausible');
  }
  const country = body.country ?? 'DE';
  if (body.postalCode !== undefined && body.postalCode.trim() && !isPostalCode(country, body.postalCode)) {
    throw badRequest('postalCode', 'invalid_postal_code', `Not a postal code of ${country}`);
  }
  if (body.telephone !== undefined && body.telephone.trim() && !isPhoneNumber(body.telephone)) {
    throw badRequest('telephone', 'invalid_telephone', 'Not a telephone number');
  }
  if (body.additionalTelephoneNumbers !== undefined && !isPhoneList(body.additionalTelephoneNumbers)) {
    throw badRequest(
      'additionalTelephoneNumbers',
      'invalid_telephone',
      'Not a comma-separated list of telephone numbers',
    );
  }
  if (body.insurerCode !== undefined && !isInsurerCode(body.insurerCode)) {
    throw badRequest('insurerCode', 'invalid_insurer_code', 'Letters and digits, 5 to 20');
  }
  if ((body.clientType ?? 'self') === 'relative' && !body.contactPerson) {
    throw badRequest('contactPerson', 'value_missing', 'A client of type relative needs a contact person');
  }
  if (body.contactPerson?.telephone && !isPhoneNumber(body.contactPerson.telephone)) {
    throw badRequest('contactPerson.telephone', 'invalid_telephone', 'Not a telephone number');
  }
  if (body.contactPerson?.email && !isEmail(body.contactPerson.email)) {
    throw badRequest('contactPerson.email', 'invalid_email', 'Not an e-mail address');
  }
}

async function assertEmailFree(tx: Tx, email: string) {
  const [row] = await tx
    .select({ id: clients.id })
    .from(clients)
    .where(sql`lower(${clients.email}) = lower(${email})`)
    .limit(1);
  if (row) throw conflict('email_taken', 'A client with this e-mail address exists already');
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
  clientId: string | null;
  linkedUserId: string | null;
}

/**
 * Checks and (unless `validateOnly`) writes, inside `tx`. With `claims` the account must be a
 * NONE account without a client, and its verified e-mail the one signed up with.
 */
export async function signUp(
  tx: Tx,
  deps: Pick<AppDeps, 'now'>,
  input: { body: SignupBody; claims: TokenClaims | null; validateOnly: boolean },
): Promise<SignupOutcome> {
  const { body, claims } = input;
  checkSignup(body, deps.now());
  const email = body.email.trim();
  if (claims && (!claims.email || claims.email.toLowerCase() !== email.toLowerCase())) {
    throw badRequest('email', 'email_mismatch', 'The e-mail differs from the signed-in address');
  }
  await assertEmailFree(tx, email);
  let account: Awaited<ReturnType<typeof accountOf>> = null;
  if (claims) account = await accountOf(tx, claims, !input.validateOnly);
  if (account) {
    const [linked] = await tx
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.userId, account.id));
    if (account.role !== 'NONE' || linked) {
      throw conflict('account_not_eligible', 'This account is staff or a client already');
    }
  }
  if (input.validateOnly) return { clientId: null, linkedUserId: null };

  const contactPerson = body.contactPerson
    ? {
        firstName: body.contactPerson.firstName.trim(),
        lastName: body.contactPerson.lastName.trim(),
        email: blankToNull(body.contactPerson.email ?? undefined),
        telephone: blankToNull(body.contactPerson.telephone ?? undefined),
      }
    : null;
  const [row] = await tx
    .insert(clients)
    .values({
      userId: account?.id ?? null,
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
      notifyViaSms: body.notifyViaSms ?? true,
    })
    .returning({ id: clients.id });
  const clientId = row!.id;
  if (account) {
    await tx
      .update(users)
      .set({ active: true, updatedAt: sql`now()` })
      .where(eq(users.id, account.id));
  }
  // Client records hold health data: the trail names the fields given, not their values.
  await recordEvent(tx, {
    type: 'client.created',
    entityType: 'client',
    entityId: clientId,
    clientId,
    changes: { fields: Object.keys(body).sort(), via: 'signup', linked: account !== null },
  });
  return { clientId, linkedUserId: account?.id ?? null };
}
