import { and, sql, type SQL } from 'drizzle-orm';
import { startsWith } from '../../db/like';
import { clients, clientSearchTerms } from '../../db/schema/index';

/**
 * The words of a search, as migration 0007 splits a client's name, e-mail and insurance
 * number: lower case, cut at spaces and punctuation. A word with an @ stays whole: it is
 * (the start of) an e-mail address, which is a word of its own, so it finds its owner alone.
 * At most six count.
 */
export function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/)
    .flatMap((word) => (word.includes('@') ? [word] : word.split(/[.@,;:/()"'+-]+/)))
    .filter(Boolean)
    .slice(0, 6);
}

/**
 * The clients one of whose words starts with each word of the search, with their creation
 * time: an index-only range scan of client_search_terms per word (migration 0007), grouped
 * by client. `open` keeps clients whose sessions are open; `coach` those of one coach.
 */
export function searchMatches(words: string[], options: { open: boolean; coach?: SQL }) {
  const t = clientSearchTerms;
  const each = words.map((word) => startsWith(sql`${t.term}`, word));
  return sql`SELECT ${t.clientId} AS id, min(${t.createdAt}) AS created_at
    FROM ${t}
    WHERE ${and(
      sql`(${sql.join(each, sql` OR `)})`,
      options.open ? sql`${t.open}` : undefined,
      options.coach ? sql`${t.coachedById} = ${options.coach}` : undefined,
    )}
    GROUP BY ${t.clientId}
    ${
      words.length > 1
        ? sql`HAVING ${sql.join(
            each.map((w) => sql`bool_or(${w})`),
            sql` AND `,
          )}`
        : sql``
    }`;
}

/** The quick search's condition on clients: every word found, open sessions or not. */
export function quickSearchMatches(text: string): SQL {
  const words = searchWords(text);
  if (words.length === 0) return sql`false`;
  return sql`${clients.id} IN (SELECT m.id FROM (${searchMatches(words, { open: false })}) m)`;
}
