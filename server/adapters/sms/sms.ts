export interface SmsMessage {
  /** Telephone number as the client gave it (the provider normalises it). */
  to: string;
  text: string;
}

export interface SmsSender {
  /** `capture` keeps messages in the communications table only; `http` sends them. */
  readonly transport: 'capture' | 'http';
  /** Sends one SMS; throws when the provider refuses it (the job retries). */
  send(message: SmsMessage): Promise<{ messageId: string | null }>;
}

export interface SmsOptions {
  /** Provider endpoint; unset = capture. */
  url?: string | undefined;
  token?: string | undefined;
  from: string;
  /** Gives up on a provider that does not answer within this time. */
  timeoutMs?: number;
}

/**
 * The SMS adapter. Without SMS_URL messages are only captured: the caller stores every
 * message in `communications` anyway, so development and tests read them there. With
 * SMS_URL each message is a `POST {from, to, text}` (JSON, bearer token) to the provider;
 * any 2xx counts as accepted and an `id`/`messageId` in its answer is kept.
 */
export function createSmsSender(options: SmsOptions): SmsSender {
  const { url, token, from, timeoutMs = 10_000 } = options;
  if (!url) {
    return { transport: 'capture', send: async () => ({ messageId: null }) };
  }
  return {
    transport: 'http',
    async send(message) {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ from, to: message.to, text: message.text }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      if (!response.ok) {
        throw new Error(`SMS provider answered ${response.status}: ${text.slice(0, 200)}`);
      }
      let messageId: string | null = null;
      try {
        const parsed = JSON.parse(text) as { id?: unknown; messageId?: unknown };
        const id = parsed.messageId ?? parsed.id;
        if (typeof id === 'string' || typeof id === 'number') messageId = String(id);
      } catch {
        // A provider answering plain text accepted the message all the same.
      }
      return { messageId };
    },
  };
}
