import { sql, type SQL } from 'drizzle-orm';

/** A LIKE pattern for a case-insensitive substring match, with the user's wildcards escaped. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

/**
 * The pattern written into the statement as a string literal rather than a parameter.
 * Connections run with generic plans (see client.ts); a plan for `LIKE $1` cannot know the
 * pattern and scans the table, a plan for `LIKE '%müller%'` uses the trigram index.
 * Quotes are doubled; connections force standard_conforming_strings, so backslashes stay
 * literal.
 */
export const likeLiteral = (pattern: string): SQL => sql.raw(`'${pattern.replace(/'/g, "''")}'`);

/** `expression LIKE '<pattern>'`, for a substring search of `text`. */
export const containsText = (expression: SQL, text: string): SQL =>
  sql`${expression} LIKE ${likeLiteral(likePattern(text))}`;
