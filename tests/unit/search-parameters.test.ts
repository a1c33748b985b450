import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { containsText, prefixEnd } from '../../server/db/like';
import {
  quickSearchMatches,
  searchMatches,
  searchPlaceholders,
  searchValues,
} from '../../server/features/clients/search';

// What a person types reaches PostgreSQL as a bind parameter, never inside the statement's text.

const dialect = new PgDialect();
const WORD = "o'brien\\%_x";

describe('search statements', () => {
  it('carry the words of a quick search as parameters', () => {
    const query = dialect.sqlToQuery(quickSearchMatches(`${WORD} müllerhausen`));
    expect(query.sql).not.toContain('brien');
    expect(query.sql).not.toContain('müller');
    // The apostrophe separates words, as in the stored ones.
    expect(query.params).toEqual(expect.arrayContaining(['o', 'brien\\%_x', 'müllerhausen']));
  });

  it('carry the words of a list search as placeholders of the prepared statement', () => {
    const words = [WORD, 'anna'];
    const query = dialect.sqlToQuery(searchMatches(searchPlaceholders(words), { open: true }));
    expect(query.sql).not.toContain('brien');
    expect(query.sql).not.toContain('anna');
    expect(Object.values(searchValues(words))).toContain(WORD);
  });

  it('carry a substring pattern as a parameter', () => {
    const query = dialect.sqlToQuery(containsText(sql`lower(x)`, WORD));
    expect(query.sql).not.toContain('brien');
    expect(query.params).toEqual(["%o'brien\\\\\\%\\_x%"]);
  });
});

describe('prefixEnd: the first text after every text starting with a prefix', () => {
  it.each([
    ['müller', 'mülles'],
    ['az', 'a{'],
    ['a\uD7FF', 'a\uE000'],
    ['a\u{10FFFF}', 'b'],
    ['\u{1F600}', '\u{1F601}'],
  ])('%s → %s', (prefix, end) => {
    expect(prefixEnd(prefix)).toBe(end);
    expect(prefix < end || [...prefix].length > [...end].length).toBe(true);
  });
});
