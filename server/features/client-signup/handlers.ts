import { bearerToken, forgetPrincipal } from '../../http/auth';
import { defineHandlers } from '../../http/handler';
import { badRequest, notFound } from '../../http/problem';
import { clientByEmail, clientById, queueSignInLink } from './request-auth';
import { signUp } from './signup';

export const clientSignupHandlers = defineHandlers({
  async signupClient({ body, query, deps, request, reply }) {
    await deps.rateLimits.clientSignup.consume(request.ip);
    // Public call; a token, when sent, must be valid (401) and names the account to link.
    const header = request.headers.authorization;
    const claims = header ? await deps.verifyToken(bearerToken(header)) : null;
    const validateOnly = query.validateOnly === true;
    const outcome = await deps.db.transaction((tx) =>
      signUp(tx, deps, { body, claims, validateOnly }),
    );
    if (claims) forgetPrincipal(deps.db, claims.subject);
    if (!outcome.clientId) return undefined;
    reply.code(201);
    return { clientId: outcome.clientId };
  },

  async requestClientAuth({ body, principal, deps, reply }) {
    const channel = body.channel ?? 'email';
    if ((body.clientId === undefined) === (body.email === undefined)) {
      throw badRequest('clientId', 'one_of_required', 'Name the client by clientId or by email');
    }
    await deps.rateLimits.clientAuthRequestCaller.consume(principal.subject);
    const target = body.clientId ?? body.email!.trim().toLowerCase();
    await deps.rateLimits.clientAuthRequest.consume(target);
    await deps.db.transaction(async (tx) => {
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
