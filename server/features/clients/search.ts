import { and, sql, type SQL } from 'drizzle-orm';
import { startsWith, textLiteral } from '../../db/like';
import {
  clients,
  clientSearchPrefixes,
  clientSearchTerms,
  SEARCH_PREFIX_LENGTH,
} from '../../db/schema/index';

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

export interface SearchOptions {
  /** Only clients whose sessions are open. */
  open: boolean;
  /** Only the clients of this coach. */
  coach?: SQL;
  /**
   * One page in creation order, cut in the same statement as the grouping: PostgreSQL then
   * sorts the words' rows and stops after the page's clients, instead of aggregating every
   * match and sorting the groups. LIMIT and OFFSET are literals (http/paging.ts pageWindow).
   */
  page?: { direction: 'asc' | 'desc'; limit: number; offset: number };
}

/**
 * The clients one of whose words starts with each word of the search, as (id, created_at):
 * one word from its stored starts (prefixMatches), several from the words themselves.
 */
export const searchMatches = (words: string[], options: SearchOptions): SQL =>
  words.length === 1 ? prefixMatches(words[0]!, options) : everyWordMatches(words, options);

/**
 * The clients with every word of the search starting one of theirs: an index-only range scan
 * of client_search_terms per word (migration 0007). The words are read apart and appended
 * (UNION ALL), since an OR of two ranges makes PostgreSQL visit the table for each row, then
 * grouped by client. A client's rows all carry its creation time, so grouping by
 * (created_at, client_id) groups by client and lets the page's order (creation time, then
 * id) come straight from the grouping's sort.
 */
function everyWordMatches(words: string[], options: SearchOptions): SQL {
  const t = clientSearchTerms;
  const wordRows = (word: string, index: number) =>
    sql`SELECT ${t.clientId} AS client_id, ${t.createdAt} AS created_at, ${sql.raw(String(index))} AS word
      FROM ${t}
      WHERE ${and(
        startsWith(sql`${t.term}`, word),
        options.open ? sql`${t.open}` : undefined,
        options.coach ? sql`${t.coachedById} = ${options.coach}` : undefined,
      )}`;
  const rows = sql.join(words.map(wordRows), sql` UNION ALL `);
  // Every word of the search must have started one of the client's words.
  const everyWord = sql.join(
    words.map((_, index) => sql`bool_or(w.word = ${sql.raw(String(index))})`),
    sql` AND `,
  );
  return sql`SELECT w.client_id AS id, w.created_at AS created_at
    FROM (${rows}) w
    GROUP BY w.created_at, w.client_id
    HAVING ${everyWord}
    ${pageOrder(sql`w.created_at`, sql`w.client_id`, options.page)}`;
}

/** The page's order and window, or nothing for all matches (a count). */
const pageOrder = (createdAt: SQL, id: SQL, page: SearchOptions['page']) =>
  page
    ? sql`ORDER BY ${createdAt} ${sql.raw(page.direction)}, ${id} ${sql.raw(page.direction)}
      LIMIT ${page.limit} OFFSET ${page.offset}`
    : sql``;

/**
 * The clients one of whose words starts with `word`, as (id, created_at), from
 * client_search_prefixes (migration 0008): one row per matching client, already in creation
 * order, so a page stops after its rows. A word longer than the stored starts is looked up by
 * its first SEARCH_PREFIX_LENGTH letters and confirmed on the client's whole words.
 */
function prefixMatches(word: string, options: SearchOptions): SQL {
  const p = clientSearchPrefixes;
  const t = clientSearchTerms;
  // Letters as PostgreSQL's left() counts them: code points, not UTF-16 units.
  const letters = Array.from(word);
  const longer = letters.length > SEARCH_PREFIX_LENGTH;
  return sql`SELECT ${p.clientId} AS id, ${p.createdAt} AS created_at
    FROM ${p}
    WHERE ${and(
      sql`${p.prefix} = ${textLiteral(letters.slice(0, SEARCH_PREFIX_LENGTH).join(''))}`,
      options.open ? sql`${p.open}` : undefined,
      options.coach ? sql`${p.coachedById} = ${options.coach}` : undefined,
      longer
        ? sql`EXISTS (SELECT 1 FROM ${t} WHERE ${t.clientId} = ${p.clientId} AND ${startsWith(sql`${t.term}`, word)})`
        : undefined,
    )}
    ${pageOrder(sql`${p.createdAt}`, sql`${p.clientId}`, options.page)}`;
}

/** The quick search's condition on clients: every word found, open sessions or not. */
export function quickSearchMatches(text: string): SQL {
  const words = searchWords(text);
  if (words.length === 0) return sql`false`;
  return sql`${clients.id} IN (SELECT m.id FROM (${searchMatches(words, { open: false })}) m)`;
}
