import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The sign-in accounts of the clients in `clients` (an id list): the product user each record
 * links (a user belongs to one client record at most, `clients_user_id_key`), unless it is
 * staff's (any role but NONE). Read before the clients go (the link is on the client row);
 * the answer deletes them, in the same transaction, once the clients are gone, and counts
 * them.
 *
 * With the product user goes the provider's identity its subject names, in the provider's
 * tables of this database (as the e-mail sync reads them): e-mail addresses, username,
 * password, passcodes, passkeys, TOTP, trusted devices, third-party links and sessions all
 * cascade from its user row. A deleted session is refused by every instance's next session
 * check (at most the provider's short check cache later), and a sign-in with the address then
 * meets an unknown address.
 */
export async function deleteClientAccounts(tx: Tx, clients: SQL): Promise<() => Promise<number>> {
  const rows = (await tx.execute(sql`
    SELECT u.id, u.auth_subject FROM users u
     WHERE u.role = 'NONE'
       AND u.id IN (SELECT user_id FROM clients WHERE id IN (${clients}))
  `)) as unknown as { rows: { id: string; auth_subject: string | null }[] };
  return async () => {
    if (rows.rows.length === 0) return 0;
    const ids = sql.join(
      rows.rows.map((r) => sql`${r.id}::uuid`),
      sql`, `,
    );
    // A client may have opened their own documents; the log keeps the read, not the reader.
    await tx.execute(sql`UPDATE clinical_access_log SET user_id = NULL WHERE user_id IN (${ids})`);
    // Idempotency keys go with the row; events and support messages keep theirs without it.
    await tx.execute(sql`DELETE FROM users WHERE id IN (${ids})`);
    const subjects = rows.rows
      .map((r) => r.auth_subject)
      .filter((s): s is string => !!s && UUID.test(s));
    if (subjects.length > 0) {
      const identities = sql.join(
        subjects.map((s) => sql`${s}::uuid`),
        sql`, `,
      );
      // Codes of an unfinished address change name the address but not yet the user.
      await tx.execute(sql`
        DELETE FROM auth_passcodes WHERE email IN (
          SELECT address FROM auth_emails WHERE user_id IN (${identities}))`);
      await tx.execute(sql`DELETE FROM auth_users WHERE id IN (${identities})`);
    }
    return rows.rows.length;
  };
}
