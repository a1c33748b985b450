import { Temporal } from '@js-temporal/polyfill';
import { instant, instantOf } from '../../time';
import { defineHandlers } from '../../http/handler';
import { badRequest } from '../../http/problem';
import { applyAuthUserEvent, syncAuthEmails } from './apply';
import { assertSigned } from './signature';

/** Older events are refused: a captured request cannot be replayed later. */
const MAX_EVENT_AGE = Temporal.Duration.from({ minutes: 10 });

/** True when `occurredAt` lies within the allowed age of now, either way (clock skew). */
function isFresh(occurredAt: string, now: Date) {
  try {
    const age = instant(occurredAt).until(instantOf(now)).abs();
    return Temporal.Duration.compare(age, MAX_EVENT_AGE) <= 0;
  } catch {
    return false; // not an instant: as good as too old
  }
}

export const authSyncHandlers = defineHandlers({
  async syncAuthEmails({ deps }) {
    return syncAuthEmails(deps.db, deps.jobs);
  },

  // Public in the contract: only a body signed with the shared secret is accepted.
  async receiveAuthUserEvent({ body, deps, request, reply }) {
    assertSigned(request, deps.config.AUTH_PRODUCT_WEBHOOK_SECRET);
    if (!isFresh(body.occurredAt, deps.now())) {
      throw badRequest('occurredAt', 'event_too_old', 'The event is older than 10 minutes');
    }
    await applyAuthUserEvent(deps.db, deps.jobs, body);
    reply.code(204);
  },
});
