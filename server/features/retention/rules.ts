import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { deleteClientAccounts } from './accounts';
import { deleteInvoices } from './invoices';
import { inTransaction } from '../../db/transaction';

/**
 * How long each kind of record is kept (docs/retention.md gives the reasons). A term is a
 * PostgreSQL interval, counted from the moment named in the rule; the job deletes what is
 * past it.
 */
export const RETENTION = {
  /** § 630f (3) BGB: ten years after the end of the treatment. */
  clinicalDocumentation: '10 years',
  /** The client record of a finished treatment: as long as its documentation. */
  formerClients: '10 years',
  /** Signed up or created, never treated, nothing happened since. */
  neverStartedClients: '2 years',
  /** The mail and SMS log (bodies included). */
  communications: '2 years',
  /** Who opened which clinical document. */
  clinicalAccessLog: '3 years',
  /** The operational feed (mails, jobs, webhooks); the audit trail (business) stays 10 years. */
  systemEvents: '1 year',
  businessEvents: '10 years',
  /** Messages to the practice's support. */
  supportMessages: '2 years',
  /** Delivered or given-up webhook messages with their attempts. */
  webhookMessages: '30 days',
  mailingListSyncs: '1 year',
  /** Sign-in flows, codes, used tokens, device tokens and sessions: after they expired. */
  expiredSignInState: '7 days',
  /** A replay answer is promised for 24 hours (the contract); the job removes what is older. */
  idempotencyKeys: '2 days',
  /**
   * § 14b UStG, § 147 (3) AO: invoices are accounting vouchers, kept eight years from the end
   * of the calendar year they were issued in (§ 147 (4) AO).
   */
  invoices: '8 years',
  /** A finished invoice run's record (which invoices it issued): operational only. */
  invoiceRuns: '1 year',
} as const;

/** Counts what a batch deleted besides its own kind (e.g. the sign-in accounts of clients). */
export type Tally = (kind: string, rows: number) => void;

/** Deletes one batch and answers how many rows it removed (0 = nothing left). */
export type Batch = (tx: Tx, now: string, tally: Tally) => Promise<number>;

export interface RetentionRule {
  name: keyof typeof RETENTION;
  batch: Batch;
}

const BATCH = 1000;
const CLIENT_BATCH = 100;

const cutoff = (now: string, term: string) => sql`(${now}::timestamptz - ${term}::interval)`;
const count = async (tx: Tx, statement: SQL) => {
  const result = (await tx.execute(statement)) as unknown as {
    rowCount?: number | null;
    affectedRows?: number;
  };
  return result.rowCount ?? result.affectedRows ?? 0;
};
/** Deletes up to BATCH rows of `table` (by `key`) that `where` picks. */
const deleteBatch = (table: string, where: (now: string) => SQL, key = 'id'): Batch => {
  return (tx, now) =>
    count(
      tx,
      sql`DELETE FROM ${sql.identifier(table)} WHERE ${sql.identifier(key)} IN (
            SELECT ${sql.identifier(key)} FROM ${sql.identifier(table)} WHERE ${where(now)} LIMIT ${sql.raw(String(BATCH))})`,
    );
};

/**
 * The last treatment of every client that has clinical documentation: the end of the last
 * held appointment, or — when the appointments went with an erased client — the last
 * document's signature or creation.
 */
const lastTreatment = sql`
  SELECT client_id, max(at) AS last_at FROM (
    SELECT client_id, end_date AS at FROM appointments WHERE cancelled_at IS NULL AND NOT no_show
    UNION ALL SELECT client_id, coalesce(signed_at, created_at) FROM appointment_summaries
    UNION ALL SELECT client_id, coalesce(signed_at, created_at) FROM patient_cards
  ) treated
  WHERE client_id IN (SELECT client_id FROM appointment_summaries UNION SELECT client_id FROM patient_cards)
  GROUP BY client_id`;

/** Clinical documentation ten years after the last treatment, with what hangs on it. */
const clinicalDocumentation: Batch = async (tx, now) => {
  const rows = (await tx.execute(sql`
    SELECT client_id FROM (${lastTreatment}) last
     WHERE last_at < ${cutoff(now, RETENTION.clinicalDocumentation)}
     LIMIT ${sql.raw(String(CLIENT_BATCH))}`)) as unknown as { rows: { client_id: string }[] };
  const ids = rows.rows.map((r) => r.client_id);
  if (ids.length === 0) return 0;
  const clientsIn = sql`client_id IN (${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;
  const documents = sql`
    SELECT 'summary' AS type, id FROM appointment_summaries WHERE ${clientsIn}
    UNION ALL SELECT 'patient_card', id FROM patient_cards WHERE ${clientsIn}`;
  // Amendments and review comments name their document without a foreign key: first them.
  // Amendments are append-only (a trigger) except for this delete, which says what it is.
  await tx.execute(sql`SET LOCAL sprechstunde.retention = 'on'`);
  await tx.execute(
    sql`DELETE FROM clinical_amendments WHERE (document_type, document_id) IN (SELECT type, id FROM (${documents}) d)`,
  );
  await tx.execute(
    sql`DELETE FROM clinical_review_comments WHERE (document_type, document_id) IN (SELECT type, id FROM (${documents}) d)`,
  );
  await tx.execute(sql`DELETE FROM clinical_access_log WHERE ${clientsIn}`);
  return (
    (await count(tx, sql`DELETE FROM appointment_summaries WHERE ${clientsIn}`)) +
    (await count(tx, sql`DELETE FROM patient_cards WHERE ${clientsIn}`))
  );
};

/** Nothing of the client's that must stay: documentation, or items on an invoice. */
const nothingKept = sql`
  NOT EXISTS (SELECT 1 FROM appointment_summaries s WHERE s.client_id = c.id)
  AND NOT EXISTS (SELECT 1 FROM patient_cards p WHERE p.client_id = c.id)
  AND NOT EXISTS (SELECT 1 FROM billable_items b JOIN invoice_items i ON i.billable_item_id = b.id WHERE b.client_id = c.id)`;

/**
 * Deletes the picked clients as an erasure does: open billing items first, then the record,
 * then the sign-in account that was only theirs.
 */
const deleteClients = async (tx: Tx, picked: SQL, tally: Tally) => {
  const rows = (await tx.execute(picked)) as unknown as { rows: { id: string }[] };
  const ids = rows.rows.map((r) => r.id);
  if (ids.length === 0) return 0;
  const list = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const removeAccounts = await deleteClientAccounts(tx, list);
  await tx.execute(sql`DELETE FROM billable_items WHERE client_id IN (${list})`);
  // Appointments, communications and search entries go with the client (ON DELETE CASCADE).
  const deleted = await count(tx, sql`DELETE FROM clients WHERE id IN (${list})`);
  tally('signInAccounts', await removeAccounts());
  return deleted;
};

/** A client whose last appointment (or, without one, whose record) is ten years old. */
const formerClients: Batch = (tx, now, tally) =>
  deleteClients(
    tx,
    sql`SELECT c.id FROM clients c
         WHERE c.updated_at < ${cutoff(now, RETENTION.formerClients)}
           AND EXISTS (SELECT 1 FROM appointments a WHERE a.client_id = c.id AND a.cancelled_at IS NULL AND NOT a.no_show AND a.end_date <= ${now}::timestamptz)
           AND NOT EXISTS (SELECT 1 FROM appointments a WHERE a.client_id = c.id AND a.end_date >= ${cutoff(now, RETENTION.formerClients)})
           AND ${nothingKept}
         LIMIT ${sql.raw(String(CLIENT_BATCH))}`,
    tally,
  );

/** A client never treated (no held appointment) with nothing booked or changed for two years. */
const neverStartedClients: Batch = (tx, now, tally) =>
  deleteClients(
    tx,
    sql`SELECT c.id FROM clients c
         WHERE c.created_at < ${cutoff(now, RETENTION.neverStartedClients)}
           AND c.updated_at < ${cutoff(now, RETENTION.neverStartedClients)}
           AND NOT EXISTS (SELECT 1 FROM appointments a WHERE a.client_id = c.id AND a.cancelled_at IS NULL AND NOT a.no_show AND a.end_date <= ${now}::timestamptz)
           AND NOT EXISTS (SELECT 1 FROM appointments a WHERE a.client_id = c.id AND (a.created_at >= ${cutoff(now, RETENTION.neverStartedClients)} OR a.end_date >= ${cutoff(now, RETENTION.neverStartedClients)}))
           AND ${nothingKept}
         LIMIT ${sql.raw(String(CLIENT_BATCH))}`,
    tally,
  );

export const RETENTION_RULES: RetentionRule[] = [
  { name: 'clinicalDocumentation', batch: clinicalDocumentation },
  // Before the client rules: a client whose last invoice went tonight goes tonight too.
  { name: 'invoices', batch: (tx, now) => deleteInvoices(tx, now, RETENTION.invoices) },
  {
    name: 'invoiceRuns',
    batch: deleteBatch(
      'invoice_runs',
      (now) => sql`finished_at IS NOT NULL AND finished_at < ${cutoff(now, RETENTION.invoiceRuns)}`,
    ),
  },
  { name: 'formerClients', batch: formerClients },
  { name: 'neverStartedClients', batch: neverStartedClients },
  {
    name: 'communications',
    // A queued message is still being sent: only finished ones go.
    batch: deleteBatch(
      'communications',
      (now) => sql`status <> 'queued' AND created_at < ${cutoff(now, RETENTION.communications)}`,
    ),
  },
  {
    name: 'clinicalAccessLog',
    batch: deleteBatch(
      'clinical_access_log',
      (now) => sql`at < ${cutoff(now, RETENTION.clinicalAccessLog)}`,
    ),
  },
  {
    name: 'systemEvents',
    // The record of what retention deleted is itself kept as long as the audit trail.
    batch: deleteBatch(
      'events',
      (now) =>
        sql`source = 'system' AND type <> 'retention.deleted' AND occurred_at < ${cutoff(now, RETENTION.systemEvents)}`,
    ),
  },
  {
    name: 'businessEvents',
    batch: deleteBatch(
      'events',
      (now) => sql`occurred_at < ${cutoff(now, RETENTION.businessEvents)}`,
    ),
  },
  {
    name: 'supportMessages',
    batch: deleteBatch(
      'support_messages',
      (now) => sql`created_at < ${cutoff(now, RETENTION.supportMessages)}`,
    ),
  },
  {
    name: 'webhookMessages',
    batch: deleteBatch(
      'webhook_messages',
      (now) => sql`status <> 'pending' AND created_at < ${cutoff(now, RETENTION.webhookMessages)}`,
    ),
  },
  {
    name: 'mailingListSyncs',
    batch: deleteBatch(
      'mailing_list_syncs',
      (now) =>
        sql`finished_at IS NOT NULL AND created_at < ${cutoff(now, RETENTION.mailingListSyncs)}`,
    ),
  },
  {
    name: 'expiredSignInState',
    batch: async (tx, now, tally) => {
      const expired = sql`expires_at < ${cutoff(now, RETENTION.expiredSignInState)}`;
      let n = 0;
      for (const table of [
        'auth_flows',
        'auth_passcodes',
        'auth_used_tokens',
        'auth_device_tokens',
        'auth_sessions',
      ]) {
        n += await deleteBatch(table, () => expired)(tx, now, tally);
      }
      return n;
    },
  },
  {
    name: 'idempotencyKeys',
    batch: deleteBatch(
      'idempotency_keys',
      (now) => sql`created_at < ${cutoff(now, RETENTION.idempotencyKeys)}`,
      // Its key is three columns: the row's physical address names one row as well.
      'ctid',
    ),
  },
];

/**
 * Runs every rule to the end, one batch per transaction (short locks beside a busy practice),
 * and answers the rows each deleted.
 */
export async function applyRetention(db: Db, now: Date): Promise<Record<string, number>> {
  const at = now.toISOString();
  const deleted: Record<string, number> = { signInAccounts: 0 };
  const tally: Tally = (kind, rows) => {
    deleted[kind] = (deleted[kind] ?? 0) + rows;
  };
  for (const rule of RETENTION_RULES) {
    let total = 0;
    for (;;) {
      // A batch that rolls back must not have counted what it did not delete.
      const extra: [string, number][] = [];
      const n = await inTransaction(db, (tx) =>
        rule.batch(tx, at, (kind, rows) => extra.push([kind, rows])),
      );
      for (const [kind, rows] of extra) tally(kind, rows);
      total += n;
      if (n === 0) break;
    }
    deleted[rule.name] = total;
  }
  return deleted;
}
