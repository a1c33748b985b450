import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret as Standard Webhooks writes it: `whsec_` + base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The `webhook-signature` header: one `v1,<base64>` per secret, space-separated. During a
 * rotation both the new and the old secret sign, so receivers on either keep verifying.
 */
export function signatureHeader(
  secrets: string[],
  messageId: string,
  timestamp: Date,
  body: string,
): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' ');
}
