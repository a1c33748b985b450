import { isPermanentMailError, type Mailer } from '../adapters/mail/mailer';
import type { SmsSender } from '../adapters/sms/sms';
import { countMessage } from './registry';

/** Settles `attempt` and counts its outcome on `channel`. */
async function counted<T>(
  channel: 'email' | 'sms',
  attempt: () => Promise<T>,
  permanent: (error: unknown) => boolean = () => false,
): Promise<T> {
  try {
    const result = await attempt();
    countMessage(channel, 'sent');
    return result;
  } catch (error) {
    countMessage(channel, permanent(error) ? 'refused' : 'failed');
    throw error;
  }
}

/** The mailer, each send counted in sprechstunde_messages_total. */
export function countedMailer(mailer: Mailer): Mailer {
  return {
    get transport() {
      return mailer.transport;
    },
    send: (message) => counted('email', () => mailer.send(message), isPermanentMailError),
    deliver: (message) => counted('email', () => mailer.deliver(message), isPermanentMailError),
    // A probe sends nothing: not an outcome.
    probe: () => mailer.probe(),
  };
}

/** The SMS sender, each send counted in sprechstunde_messages_total. */
export function countedSms(sms: SmsSender): SmsSender {
  return {
    get transport() {
      return sms.transport;
    },
    send: (message) => counted('sms', () => sms.send(message)),
  };
}
