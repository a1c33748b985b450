import { defineHandlers } from '../../http/handler';
import { badRequest } from '../../http/problem';
import { applyAuthUserEvent, syncAuthEmails } from './apply';
import { assertSigned } from './signature';

/** Older events are refused: a captured request cannot be replayed later. */
const MAX_EVENT_AGE_MS = 10 * 60 * 1000;

export const authSyncHandlers = defineHandlers({
  async syncAuthEmails({ deps }) {
    return syncAuthEmails(deps.db);
  },

  // Public in the contract: only a body signed with the shared secret is accepted.
  async receiveAuthUserEvent({ body, deps, request, reply }) {
    assertSigned(request, deps.config.AUTH_PRODUCT_WEBHOOK_SECRET);
    const age = deps.now().getTime() - Date.parse(body.occurredAt);
    if (!(Math.abs(age) <= MAX_EVENT_AGE_MS)) {
      throw badRequest('occurredAt', 'event_too_old', 'The event is older than 10 minutes');
    }
    await applyAuthUserEvent(deps.db, body);
    reply.code(204);
  },
});
