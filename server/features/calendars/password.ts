import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { calendarConnections } from '../../db/schema/index';
import {
  keyringOf,
  needsSealing,
  openSecret,
  sealSecret,
  SecretUnreadable,
} from '../webhooks/index';
import { openCalDav } from './caldav';

/**
 * CalDAV app passwords at rest: sealed with the webhook secrets' keyring (AES-256-GCM, key
 * from WEBHOOK_SECRET_KEY, the previous key still opens), bound to the coach, so a value
 * copied to another coach's row does not open.
 */
type KeyConfig = Pick<Config, 'WEBHOOK_SECRET_KEY' | 'WEBHOOK_SECRET_KEY_PREVIOUS'>;

const bindingOf = (coachId: string) => `caldav:${coachId}`;

export const sealPassword = (config: KeyConfig, coachId: string, password: string) =>
  sealSecret(keyringOf(config), bindingOf(coachId), password);

export const openPassword = (config: KeyConfig, coachId: string, sealed: string) =>
  openSecret(keyringOf(config), bindingOf(coachId), sealed);

/**
 * What the sync and the write-back take from the configuration: the keys that open the
 * passwords, whether private servers may be reached, and the public URL in our events' UIDs.
 */
export type CalendarServerConfig = KeyConfig &
  Pick<Config, 'PUBLIC_URL' | 'CALENDAR_ALLOW_PRIVATE_SERVERS'>;

/** Signs in to a stored connection's server, with its sealed password opened for the call. */
export const openConnection = (
  config: KeyConfig & Pick<Config, 'CALENDAR_ALLOW_PRIVATE_SERVERS'>,
  connection: Pick<
    typeof calendarConnections.$inferSelect,
    'serverUrl' | 'username' | 'coachId' | 'sealedPassword'
  >,
) =>
  openCalDav(
    {
      serverUrl: connection.serverUrl,
      username: connection.username,
      password: openPassword(config, connection.coachId, connection.sealedPassword),
    },
    { allowPrivate: config.CALENDAR_ALLOW_PRIVATE_SERVERS },
  );

/**
 * Seals every stored password again that was sealed with an older key (at start, after the
 * migrations, like the webhook secrets), so WEBHOOK_SECRET_KEY_PREVIOUS can be dropped after a
 * rotation without losing a connection. A row is written only if it still holds what was
 * read, so two instances starting at once do not undo each other. A password that opens with
 * neither key is left as it is (its connection fails to sign in, the coach enters it again)
 * and its connection reported to `onUnreadable`. Answers how many were sealed again.
 */
export async function sealStoredPasswords(
  db: Db,
  config: KeyConfig,
  onUnreadable: (connectionId: string) => void = () => {},
): Promise<number> {
  const keyring = keyringOf(config);
  const rows = await db
    .select({
      id: calendarConnections.id,
      coachId: calendarConnections.coachId,
      sealed: calendarConnections.sealedPassword,
    })
    .from(calendarConnections);
  let sealed = 0;
  for (const row of rows) {
    if (!needsSealing(keyring, row.sealed)) continue;
    let password: string;
    try {
      password = openPassword(config, row.coachId, row.sealed);
    } catch (error) {
      if (!(error instanceof SecretUnreadable)) throw error;
      onUnreadable(row.id);
      continue;
    }
    const updated = await db
      .update(calendarConnections)
      .set({ sealedPassword: sealPassword(config, row.coachId, password) })
      .where(
        and(eq(calendarConnections.id, row.id), eq(calendarConnections.sealedPassword, row.sealed)),
      )
      .returning({ id: calendarConnections.id });
    sealed += updated.length;
  }
  return sealed;
}
