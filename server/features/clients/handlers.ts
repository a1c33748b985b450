import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { emailHolder } from '../../db/email-holder';
import { billableItems, clients, coaches } from '../../db/schema/index';
import type { Principal } from '../../http/auth';
import { defineHandlers, type AppDeps, type Body } from '../../http/handler';
import { badRequest, conflict, notFound } from '../../http/problem';
import { recordEvent, updateRecorded } from '../events/index';
import { clientData, emitWebhook } from '../webhooks/index';
import { sendContractReminder } from './contract-reminder';
import { assertClientFields } from './fields';
import { listClientPage } from './list';
import { clientScope, findClient } from './repository';
import { assertMayAssignCoach, assertMayWriteClinical } from './scope';
import { quickSearchMatches } from './search';
import { inTransaction } from '../../db/transaction';

type ClientInput = Body<'createClient'> | Body<'updateClient'>;

async function assertCoaches(db: Db | Tx, input: ClientInput) {
  for (const field of ['coachedById', 'existingClientOfCoachId'] as const) {
    const id = input[field];
    if (!id) continue;
    const [row] = await db.select({ id: coaches.id }).from(coaches).where(eq(coaches.id, id));
    if (!row) throw badRequest(field, 'unknown_coach', 'No coach with this id');
  }
}

/** A relative's record names the person to talk to: checked on the state after the write. */
function assertContactPerson(clientType: string, contactPerson: object | null | undefined) {
  if (clientType === 'relative' && !contactPerson) {
    throw badRequest(
      'contactPerson',
      'value_missing',
      'A client of type relative needs a contact person',
    );
  }
}

async function assertEmailFree(db: Db | Tx, email: string | null | undefined, exceptId?: string) {
  if (!email) return;
  const holder = await emailHolder(db, clients, email);
  if (holder && holder !== exceptId) {
    throw conflict('email_taken', 'A client with this e-mail address exists already');
  }
}

/** A new address drops the mailing list's bounce flag, which was about the old one. */
function bounceAfterEmail(email: string | null | undefined) {
  if (email === undefined) return {};
  const same = sql`lower(coalesce(${clients.email}, '')) = lower(coalesce(${email}, ''))`;
  return {
    emailBouncedAt: sql`CASE WHEN ${same} THEN ${clients.emailBouncedAt} END`,
    emailBounceReason: sql`CASE WHEN ${same} THEN ${clients.emailBounceReason} END`,
  };
}

/** The stored shape: a contact person always carries both optional fields. */
function clientValues<T extends ClientInput>(input: T, write: 'insert' | 'update') {
  const { contactPerson, ...base } = input;
  // The consent's time: kept while it stands, set when it is given, gone when withdrawn.
  const rest =
    base.notifyViaSms === undefined
      ? base
      : {
          ...base,
          smsConsentAt: !base.notifyViaSms
            ? null
            : write === 'update'
              ? sql`coalesce(${clients.smsConsentAt}, now())`
              : sql`now()`,
        };
  const withBounce = write === 'update' ? { ...rest, ...bounceAfterEmail(base.email) } : rest;
  if (contactPerson === undefined) return withBounce;
  return {
    ...withBounce,
    contactPerson: contactPerson && {
      firstName: contactPerson.firstName,
      lastName: contactPerson.lastName,
      email: contactPerson.email ?? null,
      telephone: contactPerson.telephone ?? null,
    },
  };
}

/** Client records hold health data: the audit trail names changed fields, not their values. */
const auditFields = (input: object) => ({ fields: Object.keys(input).sort() });

async function setSessionsClosed(
  deps: AppDeps,
  principal: Principal,
  clientId: string,
  closed: boolean,
) {
  return inTransaction(deps.db, async (tx) => {
    const before = await findClient(tx, principal, clientId);
    if (!before) throw notFound('client');
    if (closed === (before.sessionsClosedOn !== null)) {
      throw conflict(
        closed ? 'sessions_already_closed' : 'sessions_already_open',
        closed ? 'The sessions are closed already' : 'The sessions are open already',
      );
    }
    await updateRecorded(
      tx,
      clients,
      clientId,
      { sessionsClosedOn: closed ? sql`now()` : null },
      {
        type: closed ? 'client.sessions_closed' : 'client.sessions_opened',
        entityType: 'client',
        clientId,
        coachId: before.coachedBy?.id ?? null,
        actor: principal,
      },
    );
    if (closed) {
      await emitWebhook(
        tx,
        deps.jobs,
        'client.sessions_closed',
        clientData(clientId, before.coachedBy?.id ?? null),
      );
    }
    return (await findClient(tx, principal, clientId))!;
  });
}

export const clientsHandlers = defineHandlers({
  async sendContractReminder({ params, principal, deps, reply }) {
    const result = await sendContractReminder(deps, principal, params.clientId);
    reply.code(202);
    return result;
  },

  async createClient({ body, principal, deps, reply }) {
    assertMayWriteClinical(principal, body, 'create');
    assertClientFields(body, deps.now());
    assertContactPerson(body.clientType ?? 'self', body.contactPerson);
    const created = await inTransaction(deps.db, async (tx) => {
      await assertCoaches(tx, body);
      await assertEmailFree(tx, body.email);
      const [row] = await tx
        .insert(clients)
        .values(clientValues(body, 'insert'))
        .returning({ id: clients.id });
      await recordEvent(tx, {
        type: 'client.created',
        entityType: 'client',
        entityId: row!.id,
        clientId: row!.id,
        coachId: body.coachedById ?? null,
        actor: principal,
        changes: auditFields(body),
      });
      await emitWebhook(
        tx,
        deps.jobs,
        'client.created',
        clientData(row!.id, body.coachedById ?? null),
      );
      return (await findClient(tx, principal, row!.id))!;
    });
    reply.code(201);
    return created;
  },

  listClients: ({ query, principal, deps }) => listClientPage(deps.db, principal, query),

  async searchClients({ query, principal, deps }) {
    const rows = await deps.db
      .select({
        id: clients.id,
        firstName: clients.firstName,
        lastName: clients.lastName,
        email: clients.email,
        yearOfBirth: clients.yearOfBirth,
      })
      .from(clients)
      .where(and(quickSearchMatches(query.query), clientScope(principal)))
      .orderBy(asc(clients.lastName), asc(clients.firstName), asc(clients.id))
      .limit(query.limit ?? 10);
    return { clients: rows };
  },

  async getClient({ params, principal, deps }) {
    const client = await findClient(deps.db, principal, params.clientId);
    if (!client) throw notFound('client');
    return client;
  },

  async updateClient({ params, body, principal, deps }) {
    return inTransaction(deps.db, async (tx) => {
      const before = await findClient(tx, principal, params.clientId);
      if (!before) throw notFound('client');
      assertMayWriteClinical(principal, body, 'update');
      assertMayAssignCoach(
        principal,
        {
          coachedById: before.coachedBy?.id ?? null,
          existingClientOfCoachId: before.existingClientOfCoachId,
        },
        body,
      );
      // The postal code is read with the country the record will have, so either change
      // re-checks the pair.
      const pairChanges = body.postalCode !== undefined || body.country !== undefined;
      assertClientFields(
        pairChanges
          ? {
              ...body,
              postalCode: body.postalCode !== undefined ? body.postalCode : before.postalCode,
              country: body.country !== undefined ? body.country : before.country,
            }
          : body,
        deps.now(),
      );
      assertContactPerson(
        body.clientType ?? before.clientType,
        body.contactPerson === undefined ? before.contactPerson : body.contactPerson,
      );
      await assertCoaches(tx, body);
      await assertEmailFree(tx, body.email, before.id);
      await updateRecorded(tx, clients, before.id, clientValues(body, 'update'), {
        type: 'client.updated',
        entityType: 'client',
        clientId: before.id,
        coachId: body.coachedById ?? before.coachedBy?.id ?? null,
        actor: principal,
        changes: auditFields(body),
      });
      await emitWebhook(
        tx,
        deps.jobs,
        'client.updated',
        clientData(before.id, body.coachedById ?? before.coachedBy?.id ?? null),
      );
      return (await findClient(tx, principal, before.id))!;
    });
  },

  // Erasure: the client and their appointments go; the audit trail keeps only ids.
  async deleteClient({ params, principal, deps }) {
    await inTransaction(deps.db, async (tx) => {
      const before = await findClient(tx, principal, params.clientId);
      if (!before) throw notFound('client');
      // Invoiced items are accounting records and must stay; open ones go with the client.
      const [invoiced] = await tx
        .select({ id: billableItems.id })
        .from(billableItems)
        .where(and(eq(billableItems.clientId, before.id), eq(billableItems.status, 'invoice_sent')))
        .limit(1);
      if (invoiced) {
        throw conflict('client_has_invoiced_items', 'The client has invoiced billable items');
      }
      await tx.delete(billableItems).where(eq(billableItems.clientId, before.id));
      await tx.delete(clients).where(eq(clients.id, before.id));
      await recordEvent(tx, {
        type: 'client.deleted',
        entityType: 'client',
        entityId: before.id,
        clientId: before.id,
        coachId: before.coachedBy?.id ?? null,
        actor: principal,
      });
    });
  },

  closeClientSessions: ({ params, principal, deps }) =>
    setSessionsClosed(deps, principal, params.clientId, true),
  openClientSessions: ({ params, principal, deps }) =>
    setSessionsClosed(deps, principal, params.clientId, false),
});
