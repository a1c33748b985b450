import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import { appointments, clients, coaches, insurers } from '../../db/schema/index';
import { bearerToken, forgetPrincipal } from '../../http/auth';
import { defineHandlers } from '../../http/handler';
import { badRequest, notFound } from '../../http/problem';
import { clientByEmail, clientById, queueSignInLink } from './request-auth';
import { signUp } from './signup';
import { toClientAppointment } from '../appointments/index';
import { inTransaction } from '../../db/transaction';

export const clientSignupHandlers = defineHandlers({
  async signupClient({ body, query, deps, request, reply }) {
    await deps.rateLimits.clientSignup.consume(request.ip);
    // Public call; a token, when sent, must be valid (401) and names the account to link.
    // The validate-only pass comes before any account exists and links nothing: no token.
    const validateOnly = query.validateOnly === true;
    const header = validateOnly ? undefined : request.headers.authorization;
    const claims = header ? await deps.verifyToken(bearerToken(header)) : null;
    const outcome = await inTransaction(deps.db, (tx) =>
      signUp(tx, deps, { body, claims, validateOnly }),
    );
    if (claims) forgetPrincipal(deps.db, claims.subject);
    if (outcome.clientId) {
      reply.code(201);
      return { clientId: outcome.clientId };
    }
    // Without a token the answer is the same for a known and an unknown address: the
    // check (204), or the sign-up going on by e-mail (202).
    reply.code(validateOnly ? 204 : 202);
    return undefined;
  },

  async listSignupInsurers({ deps }) {
    const rows = await deps.db
      .select({ name: insurers.name })
      .from(insurers)
      .where(eq(insurers.active, true));
    const german = new Intl.Collator('de');
    return { insurers: rows.sort((a, b) => german.compare(a.name, b.name)) };
  },

  async listOwnInitialAppointments({ principal, deps }) {
    const userId = principal.user?.id;
    if (!userId) return { appointments: [] };
    const rows = await deps.db
      .select({
        appointment: appointments,
        coachFirstName: coaches.firstName,
        coachLastName: coaches.lastName,
      })
      .from(appointments)
      .innerJoin(clients, eq(clients.id, appointments.clientId))
      .innerJoin(coaches, eq(coaches.id, appointments.coachId))
      .where(
        and(
          eq(clients.userId, userId),
          eq(appointments.appointmentType, 'initial'),
          isNull(appointments.cancelledAt),
          gt(appointments.endDate, deps.now().toISOString()),
        ),
      )
      .orderBy(asc(appointments.startDate), asc(appointments.id))
      .limit(10);
    return { appointments: rows.map((row) => toClientAppointment(row, deps.config)) };
  },

  async requestClientAuth({ body, principal, deps, reply }) {
    const channel = body.channel ?? 'email';
    if ((body.clientId === undefined) === (body.email === undefined)) {
      throw badRequest('clientId', 'one_of_required', 'Name the client by clientId or by email');
    }
    await deps.rateLimits.clientAuthRequestCaller.consume(principal.subject);
    const target = body.clientId ?? body.email!.trim().toLowerCase();
    await deps.rateLimits.clientAuthRequest.consume(target);
    await inTransaction(deps.db, async (tx) => {
      if (body.clientId) {
        const client = await clientById(tx, body.clientId);
        if (!client) throw notFound('client');
        await queueSignInLink(tx, deps, client, channel);
        return;
      }
      // By address: the same answer whether or not a client has it (no enumeration).
      const client = await clientByEmail(tx, body.email!.trim());
      if (client && (channel === 'email' || client.telephone?.trim())) {
        await queueSignInLink(tx, deps, client, channel);
      }
    });
    reply.code(202);
    return { sentAt: deps.now().toISOString(), channel };
  },
});
