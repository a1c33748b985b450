import { and, sql, type SQL } from 'drizzle-orm';
import { inPrefixRange, prefixEnd } from '../../db/like';
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

/**
 * One word of a search as the statement reads it: the values are bind parameters, or
 * placeholders of a prepared statement (`searchPlaceholders`), never SQL text.
 */
export interface SearchWord {
  /** Its first SEARCH_PREFIX_LENGTH letters (client_search_prefixes). */
  prefix: unknown;
  /** The range of words it starts: [from, to) (db/like.ts inPrefixRange). */
  from: unknown;
  to: unknown;
  /** Longer than the stored starts, so confirmed on the whole words. */
  longer: boolean;
}

// Letters as PostgreSQL's left() counts them: code points, not UTF-16 units.
const isLonger = (word: string) => Array.from(word).length > SEARCH_PREFIX_LENGTH;

/** The values of a search's words, by the names `searchPlaceholders` gives them. */
export function searchValues(words: string[]): Record<string, string> {
  return Object.fromEntries(
    words.flatMap((word, i) => [
      [`search${i}Prefix`, Array.from(word).slice(0, SEARCH_PREFIX_LENGTH).join('')],
      [`search${i}From`, word],
      [`search${i}To`, prefixEnd(word)],
    ]),
  );
}

/** A search's words as placeholders of a prepared statement (values: `searchValues`). */
export const searchPlaceholders = (words: string[]): SearchWord[] =>
  words.map((word, i) => ({
    prefix: sql.placeholder(`search${i}Prefix`),
    from: sql.placeholder(`search${i}From`),
    to: sql.placeholder(`search${i}To`),
    longer: isLonger(word),
  }));

/** A search's words as bind parameters of a statement built for one call. */
const searchParameters = (words: string[]): SearchWord[] => {
  const values = searchValues(words);
  return words.map((word, i) => ({
    prefix: values[`search${i}Prefix`],
    from: values[`search${i}From`],
    to: values[`search${i}To`],
    longer: isLonger(word),
  }));
};

/**
 * What of a search decides its statement: how many words, and which are longer than the
 * stored starts. The words themselves are values (searchValues).
 */
export const searchShape = (text: string | undefined) =>
  text === undefined
    ? null
    : searchWords(text)
        .map((w) => (isLonger(w) ? 'L' : 'S'))
        .join('');

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
export const searchMatches = (words: SearchWord[], options: SearchOptions): SQL =>
  words.length === 1 ? prefixMatches(words[0]!, options) : everyWordMatches(words, options);

/**
 * The clients with every word of the search starting one of theirs: an index-only range scan
 * of client_search_terms per word (migration 0007). The words are read apart and appended
 * (UNION ALL), since an OR of two ranges makes PostgreSQL visit the table for each row, then
 * grouped by client. A client's rows all carry its creation time, so grouping by
 * (created_at, client_id) groups by client and lets the page's order (creation time, then
 * id) come straight from the grouping's sort.
 */
function everyWordMatches(words: SearchWord[], options: SearchOptions): SQL {
  const t = clientSearchTerms;
  const wordRows = (word: SearchWord, index: number) =>
    sql`SELECT ${t.clientId} AS client_id, ${t.createdAt} AS created_at, ${sql.raw(String(index))} AS word
      FROM ${t}
      WHERE ${and(
        inPrefixRange(sql`${t.term}`, word.from, word.to),
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
function prefixMatches(word: SearchWord, options: SearchOptions): SQL {
  const p = clientSearchPrefixes;
  const t = clientSearchTerms;
  return sql`SELECT ${p.clientId} AS id, ${p.createdAt} AS created_at
    FROM ${p}
    WHERE ${and(
      sql`${p.prefix} = ${word.prefix}`,
      options.open ? sql`${p.open}` : undefined,
      options.coach ? sql`${p.coachedById} = ${options.coach}` : undefined,
      word.longer
        ? sql`EXISTS (SELECT 1 FROM ${t} WHERE ${t.clientId} = ${p.clientId} AND ${inPrefixRange(sql`${t.term}`, word.from, word.to)})`
        : undefined,
    )}
    ${pageOrder(sql`${p.createdAt}`, sql`${p.clientId}`, options.page)}`;
}

/** The quick search's condition on clients: every word found, open sessions or not. */
export function quickSearchMatches(text: string): SQL {
  const words = searchWords(text);
  if (words.length === 0) return sql`false`;
  return sql`${clients.id} IN (SELECT m.id FROM (${searchMatches(searchParameters(words), { open: false })}) m)`;
}
