import { sql, type SQL } from 'drizzle-orm';

// What a person types reaches PostgreSQL only as a bind parameter, never as SQL text.

/** The user's text with LIKE's wildcards and escape character taken literally. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** A LIKE pattern for a substring match of `text` (lower-cased), `%text%`. */
export const containsPattern = (text: string) => `%${escapeLike(text.toLowerCase())}%`;

/**
 * `expression LIKE $1` for a case-insensitive substring match: `expression` must be lower
 * case. A trigram index still serves the parameter (its operator takes any pattern at run time).
 */
export const containsText = (expression: SQL, text: string): SQL =>
  sql`${expression} LIKE ${containsPattern(text)}`;

const LAST_CODE_POINT = 0x10ffff;

/**
 * The text just after every text starting with `prefix` in code-point (UTF-8 byte) order:
 * the prefix with its last code point raised by one. A prefix of nothing but U+10FFFF (a
 * noncharacter no one types) has no such text; its bound then leaves out the few words that
 * continue it with a further U+10FFFF.
 */
export function prefixEnd(prefix: string): string {
  const points = Array.from(prefix, (c) => c.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last < LAST_CODE_POINT) {
      // No text holds a lone surrogate: after U+D7FF comes U+E000.
      points.push(last === 0xd7ff ? 0xe000 : last + 1);
      return String.fromCodePoint(...points);
    }
  }
  return `${prefix}\u{10FFFF}`;
}

/**
 * `expression` starts with the text between `from` and `to` (prefixEnd of it): a range of a
 * `text_pattern_ops` index. A generic plan for `LIKE $1 || '%'` cannot know the prefix and so
 * reads the whole index; a range of two parameters is an index range whatever they hold.
 * The operators compare bytes, as the index does, whatever the database's collation.
 */
export const inPrefixRange = (expression: SQL, from: unknown, to: unknown): SQL =>
  sql`(${expression} ~>=~ ${from} AND ${expression} ~<~ ${to})`;
