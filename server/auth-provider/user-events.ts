import { createHmac, randomUUID } from 'node:crypto';

/**
 * What the product hears from the provider: a user was created or
 * deleted, or a user's primary e-mail address changed. `email` is the (new) primary
 * address, null when there is none (a deleted user, a user without an address). Published as
 * the `userEvent` webhook of openapi/auth.yaml: the product receives it from there, never
 * from this module.
 */
export interface AuthUserEvent {
  /** Unique per event: receivers may use it to drop repeats. */
  id: string;
  type: 'user.created' | 'user.deleted' | 'user.email_changed';
  userId: string;
  email: string | null;
  /** RFC 3339. */
  occurredAt: string;
}

export type AuthUserEventHandler = (event: AuthUserEvent) => Promise<void> | void;

export const WEBHOOK_SIGNATURE_HEADER = 'x-auth-signature';

/** `sha256=<hex>`: HMAC-SHA256 of the exact body bytes with the shared secret. */
export function signWebhookBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface UserEventsOptions {
  /** In-process receiver (the default set-up: the product's function). */
  onUserEvent?: AuthUserEventHandler | undefined;
  /** Signed webhook (the provider on its own). */
  webhook?: { url: string; secret: string } | undefined;
  /** Delays between webhook attempts (ms); default 1 s, 5 s, 30 s. */
  retryDelaysMs?: readonly number[];
  fetch?: typeof fetch;
}

/**
 * Delivers user events after the change is committed. Delivery never fails the caller's
 * request: an in-process handler's error and a webhook that keeps failing are logged (the
 * product's `POST /admin/sync-auth-emails` repairs e-mail drift afterwards).
 */
export function createUserEvents(options: UserEventsOptions) {
  let logError: (error: unknown) => void = () => {};
  const retries = options.retryDelaysMs ?? [1_000, 5_000, 30_000];
  const doFetch = options.fetch ?? fetch;
  const pending = new Set<Promise<void>>();

  async function post(webhook: { url: string; secret: string }, event: AuthUserEvent) {
    const body = JSON.stringify(event);
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await doFetch(webhook.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(webhook.secret, body),
          },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        // 4xx other than 429 will not get better by repeating.
        if (response.ok) return;
        if (response.status < 500 && response.status !== 429) {
          throw new Error(`product webhook answered ${response.status}`);
        }
        if (attempt >= retries.length)
          throw new Error(`product webhook answered ${response.status}`);
      } catch (error) {
        if (
          attempt >= retries.length ||
          (error instanceof Error && /answered 4/.test(error.message))
        ) {
          throw error;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, retries[attempt]));
    }
  }

  async function deliver(event: AuthUserEvent) {
    if (options.onUserEvent) {
      try {
        await options.onUserEvent(event);
      } catch (error) {
        logError(error);
      }
    }
    if (options.webhook) {
      try {
        await post(options.webhook, event);
      } catch (error) {
        logError(error);
      }
    }
  }

  return {
    /** Call after the commit. In-process handlers are awaited; the webhook runs behind. */
    async emit(input: Omit<AuthUserEvent, 'id' | 'occurredAt'> & { occurredAt?: Date }) {
      if (!options.onUserEvent && !options.webhook) return;
      const event: AuthUserEvent = {
        id: randomUUID(),
        type: input.type,
        userId: input.userId,
        email: input.email,
        occurredAt: (input.occurredAt ?? new Date()).toISOString(),
      };
      const run = deliver(event);
      if (!options.webhook) return run;
      // The webhook may retry for a while: the request does not wait for it.
      pending.add(run);
      void run.finally(() => pending.delete(run));
    },
    /** Waits for webhook deliveries still under way (shutdown, tests). */
    async settle() {
      await Promise.all([...pending]);
    },
    setErrorLogger(log: (error: unknown) => void) {
      logError = log;
    },
  };
}

export type UserEvents = ReturnType<typeof createUserEvents>;
