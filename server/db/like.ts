import { sql, type SQL } from 'drizzle-orm';

/** The user's text with LIKE's wildcards and escape character taken literally. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');
/** A LIKE pattern for a case-insensitive substring match. */
const likePattern = (text: string) => `%${escapeLike(text.toLowerCase())}%`;

/**
 * Text (a pattern, a search word) written into the statement as a string literal rather than
 * a parameter. Connections run with generic plans (see client.ts); a plan for `LIKE $1`
 * cannot know the pattern and scans the table, a plan for `LIKE '%müller%'` uses the trigram
 * index, and a literal word gives the planner its real number of matches.
 * Quotes are doubled; connections force standard_conforming_strings, so backslashes stay
 * literal.
 */
export const textLiteral = (pattern: string): SQL => sql.raw(`'${pattern.replace(/'/g, "''")}'`);

/** `expression LIKE '<text>%'`, for words starting with `text` (already lower case). */
export const startsWith = (expression: SQL, text: string): SQL =>
  sql`${expression} LIKE ${textLiteral(`${escapeLike(text)}%`)}`;

/** `expression LIKE '<pattern>'`, for a substring search of `text`. */
export const containsText = (expression: SQL, text: string): SQL =>
  sql`${expression} LIKE ${textLiteral(likePattern(text))}`;
