import pg from 'pg';

/**
 * The SQL text of every statement this process sends to PostgreSQL while `work` runs (the
 * app's pool and the job queue's alike): for tests that count round trips. PGlite sends none
 * through here, so callers skip without DATABASE_URL.
 */
export async function statementsDuring<T>(
  work: () => Promise<T>,
): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first] = args;
    const text =
      typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '');
    statements.push(text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    const result = await work();
    return { result, statements };
  } finally {
    pg.Client.prototype.query = original;
  }
}
